package org.braid.matchmaking;

import java.time.InstantSource;
import java.util.Objects;

/**
 * Options for evaluating ClassAd expressions: the clock and the limits that keep one evaluation
 * bounded in time, stack and memory whatever the input. Each limit applies to one whole evaluation
 * (one call of an {@link Evaluation} method, one {@link MatchClassAd} question), list projections
 * and list functions included.
 *
 * @param clock the source of "now" for {@code time()} and friends. Default: the system clock.
 * @param maxReferenceDepth how deeply evaluation may nest, counted as HTCondor counts it, before it
 *     gives up with error: each attribute reference being followed, each operator (parentheses,
 *     {@code ?:} and subscripts included) and the scope of each {@code expr.attr} being evaluated
 *     count one; function calls and literals do not. Default: 400 (HTCondor's), so a chain of 399
 *     plain references evaluates and one of 200 {@code a = b + 1} links too.
 * @param maxNesting how deeply evaluation may recurse in total (operators, calls and references
 *     together; lists nested in a printed value too) before it gives up with error. The calling
 *     thread holds at most 256 levels; deeper ones run on helper threads with stacks of their own
 *     (see docs/classads.md), so deep input cannot overflow the caller's stack. Default: 1000 (a
 *     chain of 399 {@code a = int(b)} links, the longest HTCondor evaluates, needs 799).
 * @param maxSteps how much work one evaluation may do before it gives up with error: one step per
 *     expression node visited, one more per 64 characters of each string value a node yields, a
 *     quarter of a regular expression's program size per character it reads, and 100 per move of a
 *     deep evaluation to a fresh stack. Default: 500,000 (the slowest hostile case of {@code
 *     HostileFuzzTest} spends it in 0.62 s of CPU on a busy 2-core VM).
 * @param maxStringLength the longest string an evaluation may build ({@code strcat}, {@code join},
 *     {@code replaceAll}, {@code string()} of a list, a printed value) before it gives error
 *     instead. Default: 1,048,576 characters.
 * @param maxPatternSize the largest regular expression accepted, in instructions of its compiled
 *     program as estimated before compiling ({@code (a{1000}){1000}} would need a million); a
 *     larger one gives error. Default: 100,000.
 */
public record EvalOptions(
    InstantSource clock,
    int maxReferenceDepth,
    int maxNesting,
    long maxSteps,
    int maxStringLength,
    int maxPatternSize) {

  /** The system clock and the default limits. */
  public static final EvalOptions DEFAULT =
      new EvalOptions(InstantSource.system(), 400, 1000, 500_000L, 1 << 20, 100_000);

  /**
   * Checks the arguments.
   *
   * @throws NullPointerException if {@code clock} is null
   * @throws IllegalArgumentException if a limit is not positive
   */
  public EvalOptions {
    Objects.requireNonNull(clock, "clock");
    positive("maxReferenceDepth", maxReferenceDepth);
    positive("maxNesting", maxNesting);
    positive("maxSteps", maxSteps);
    positive("maxStringLength", maxStringLength);
    positive("maxPatternSize", maxPatternSize);
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }

  /** These options with the given clock. */
  public EvalOptions withClock(InstantSource c) {
    return new EvalOptions(
        c, maxReferenceDepth, maxNesting, maxSteps, maxStringLength, maxPatternSize);
  }

  /**
   * These options with the given step budget.
   *
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public EvalOptions withMaxSteps(long n) {
    return new EvalOptions(
        clock, maxReferenceDepth, maxNesting, n, maxStringLength, maxPatternSize);
  }

  /**
   * These options with the given nesting limit.
   *
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public EvalOptions withMaxNesting(int n) {
    return new EvalOptions(clock, maxReferenceDepth, n, maxSteps, maxStringLength, maxPatternSize);
  }

  /**
   * These options with the given string length limit.
   *
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public EvalOptions withMaxStringLength(int n) {
    return new EvalOptions(clock, maxReferenceDepth, maxNesting, maxSteps, n, maxPatternSize);
  }

  /**
   * These options with the given regular-expression size limit.
   *
   * @throws IllegalArgumentException if {@code n} is not positive
   */
  public EvalOptions withMaxPatternSize(int n) {
    return new EvalOptions(clock, maxReferenceDepth, maxNesting, maxSteps, maxStringLength, n);
  }
}
