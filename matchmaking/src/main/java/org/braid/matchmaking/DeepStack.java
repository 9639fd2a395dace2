package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Fresh thread stacks for one deep evaluation. {@link EvalOptions#maxNesting()} bounds recursion,
 * but how much stack a level takes depends on the JIT (it varied several-fold between runs of the
 * same code), so the caller's thread evaluates at most {@link #LEVELS} levels and each further
 * {@link #LEVELS} run on a helper thread of their own, with a stack of {@link #BYTES}, while the
 * thread below waits. Helpers are made on first need, reused for as long as the evaluation runs (an
 * input may cross a boundary many times) and stopped by {@link #close()}. Ordinary expressions nest
 * a few levels and never get here. Used by one evaluation at a time.
 */
final class DeepStack implements AutoCloseable {

  /** Levels of nesting one thread's stack holds before evaluation moves on to the next. */
  static final int LEVELS = 256;

  /**
   * Stack of each helper thread: {@link #LEVELS} levels at well under 2 KiB each, plus a parse of
   * {@code eval()}'s string at the parser's depth limit (under 400 KiB).
   */
  static final long BYTES = 2L << 20;

  /** Steps of the budget one move to the next stack costs (a hand-over to a waiting thread). */
  static final int STEPS = 100;

  /**
   * Stack of the helper that matches large regular expressions: RE2/J recurses once per instruction
   * on an empty-width path, under 100 bytes a frame, and programs are at most {@link
   * EvalOptions#maxPatternSize()} (100,000 by default) instructions.
   */
  static final long REGEX_BYTES = 32L << 20;

  private final List<ExecutorService> helpers = new ArrayList<>();
  private ExecutorService regexHelper;

  /**
   * Runs {@code body} on the helper for stack {@code segment} (1 for levels {@link #LEVELS} and up,
   * 2 for twice that, ...) and waits for it; what it throws is thrown here. The evaluator is handed
   * over whole: only one thread runs it at a time, and the hand-over orders their memory effects.
   */
  <T> T run(int segment, Supplier<T> body) {
    while (helpers.size() < segment) {
      helpers.add(helper("classad-deep-evaluation", BYTES));
    }
    return runOn(helpers.get(segment - 1), body);
  }

  /** Runs {@code body} on the helper with a stack of {@link #REGEX_BYTES} and waits for it. */
  <T> T runLarge(Supplier<T> body) {
    if (regexHelper == null) {
      regexHelper = helper("classad-regex", REGEX_BYTES);
    }
    return runOn(regexHelper, body);
  }

  private static ExecutorService helper(String name, long stackBytes) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(null, r, name, stackBytes);
          t.setDaemon(true);
          return t;
        });
  }

  private static <T> T runOn(ExecutorService helper, Supplier<T> body) {
    Future<T> done = helper.submit(body::get);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return done.get();
        } catch (InterruptedException e) {
          interrupted = true; // the helper is using the evaluator: wait for it all the same
        }
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw (Error) cause;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops the helper threads. */
  @Override
  public void close() {
    for (ExecutorService h : helpers) {
      h.shutdownNow();
    }
    helpers.clear();
    if (regexHelper != null) {
      regexHelper.shutdownNow();
      regexHelper = null;
    }
  }
}
