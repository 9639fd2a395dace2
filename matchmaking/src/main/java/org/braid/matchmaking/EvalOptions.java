package org.braid.matchmaking;

import java.time.InstantSource;
import java.util.Objects;

/**
 * Options for evaluating ClassAd expressions.
 *
 * @param clock the source of "now" for {@code time()} and friends. Default: the system clock.
 * @param maxReferenceDepth how deeply evaluation may nest, counted as HTCondor counts it, before it
 *     gives up with error: each attribute reference being followed, each operator (parentheses,
 *     {@code ?:} and subscripts included) and the scope of each {@code expr.attr} being evaluated
 *     count one; function calls and literals do not. Default: 400 (HTCondor's), so a chain of 399
 *     plain references evaluates and one of 200 {@code a = b + 1} links too.
 * @param maxNesting how deeply evaluation may recurse in total (operators, calls and references
 *     together) before it gives up with error, so deep input can never overflow the stack. Default:
 *     2000.
 * @param maxSteps how many expression nodes one evaluation may visit before it gives up with error,
 *     so that expressions that refer to the same attributes over and over (where HTCondor's own
 *     library would run for hours) stay bounded. Default: 10,000,000.
 */
public record EvalOptions(
    InstantSource clock, int maxReferenceDepth, int maxNesting, long maxSteps) {

  /** The system clock and the default limits. */
  public static final EvalOptions DEFAULT =
      new EvalOptions(InstantSource.system(), 400, 2000, 10_000_000L);

  /**
   * Checks the arguments.
   *
   * @throws NullPointerException if {@code clock} is null
   * @throws IllegalArgumentException if a limit is not positive
   */
  public EvalOptions {
    Objects.requireNonNull(clock, "clock");
    if (maxReferenceDepth <= 0) {
      throw new IllegalArgumentException(
          "maxReferenceDepth must be positive: " + maxReferenceDepth);
    }
    if (maxNesting <= 0) {
      throw new IllegalArgumentException("maxNesting must be positive: " + maxNesting);
    }
    if (maxSteps <= 0) {
      throw new IllegalArgumentException("maxSteps must be positive: " + maxSteps);
    }
  }

  /** These options with the given clock. */
  public EvalOptions withClock(InstantSource c) {
    return new EvalOptions(c, maxReferenceDepth, maxNesting, maxSteps);
  }
}
