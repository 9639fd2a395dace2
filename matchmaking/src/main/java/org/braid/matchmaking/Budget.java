package org.braid.matchmaking;

/**
 * The work one whole evaluation may do, shared by every {@link Evaluator} that evaluation creates
 * (list projections and ad subscripts start fresh evaluators, never fresh budgets), the first of
 * Braid's own safety limits it reached, and the helper stacks of a deep evaluation ({@link
 * #close()} stops them). Not thread-safe: one evaluation runs on one thread at a time.
 */
final class Budget implements AutoCloseable {

  /** Extra steps per this many characters of a string value an evaluation step yields. */
  static final int CHARS_PER_STEP = 64;

  final EvalOptions options;
  private long steps;
  private String limitReached;
  private DeepStack deepStack; // made on first need

  Budget(EvalOptions options) {
    this.options = options;
  }

  /** Counts one visited node. */
  void step() {
    if (++steps > options.maxSteps()) {
      throw overSteps();
    }
  }

  /**
   * Counts {@code n} steps of work done on behalf of one node (characters of a string, characters a
   * regular expression reads times the size of its program).
   */
  void charge(long n) {
    if (n > options.maxSteps() - steps) {
      steps = options.maxSteps() + 1;
      throw overSteps();
    }
    steps += n;
  }

  /** Charges for a string value of {@code length} characters that one step yields. */
  void chargeString(int length) {
    if (length >= CHARS_PER_STEP) {
      charge(length / CHARS_PER_STEP);
    }
  }

  /** True once the step budget is spent: every further step fails. */
  boolean exhausted() {
    return steps > options.maxSteps();
  }

  private EvalFailure overSteps() {
    return failure("evaluation took more than " + options.maxSteps() + " steps");
  }

  /**
   * True when a string of {@code length} characters may be built; otherwise records the limit so
   * the caller can give error.
   */
  boolean stringFits(long length) {
    if (length <= options.maxStringLength()) {
      return true;
    }
    stringTooLong();
    return false;
  }

  /** Records that a string would exceed the limit; returns the error value to give instead. */
  Value stringTooLong() {
    reached("string longer than " + options.maxStringLength() + " characters");
    return Value.ERROR;
  }

  /** A failure for a safety limit, recorded as the evaluation's first limit if none was. */
  EvalFailure failure(String why) {
    reached(why);
    return new EvalFailure(why);
  }

  /** Records {@code why} as the first safety limit reached, if none was. */
  void reached(String why) {
    if (limitReached == null) {
      limitReached = why;
    }
  }

  /** The first safety limit reached, or null. */
  String limitReached() {
    return limitReached;
  }

  /** The helper stacks of this evaluation. */
  DeepStack deepStack() {
    if (deepStack == null) {
      deepStack = new DeepStack();
    }
    return deepStack;
  }

  /** Stops the helper threads a deep evaluation started, if any. */
  @Override
  public void close() {
    if (deepStack != null) {
      deepStack.close();
      deepStack = null;
    }
  }
}
