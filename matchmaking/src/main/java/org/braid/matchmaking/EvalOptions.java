package org.braid.matchmaking;

import java.time.InstantSource;
import java.util.Objects;

/**
 * Options for evaluating ClassAd expressions.
 *
 * @param clock the source of "now" for {@code time()} and friends. Default: the system clock.
 * @param maxReferenceDepth how many attribute references may be followed inside one another
 *     before evaluation gives up with error (HTCondor's limit). Default: 200.
 * @param maxNesting how deeply evaluation may recurse in total (operators, calls and references
 *     together) before it gives up with error, so deep input can never overflow the stack.
 *     Default: 2000.
 */
public record EvalOptions(InstantSource clock, int maxReferenceDepth, int maxNesting) {

  /** The system clock and the default limits. */
  public static final EvalOptions DEFAULT = new EvalOptions(InstantSource.system(), 200, 2000);

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
  }

  /** These options with the given clock. */
  public EvalOptions withClock(InstantSource c) {
    return new EvalOptions(c, maxReferenceDepth, maxNesting);
  }
}
