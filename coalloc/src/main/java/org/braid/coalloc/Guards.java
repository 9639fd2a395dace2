package org.braid.coalloc;

import java.time.Duration;

/**
 * The limits a download keeps whatever the replicas do, frozen with the rest of a {@link
 * DownloadSpec}.
 *
 * @param expectedSize the size the file must have (from a catalog or Metalink), or -1 for none: a
 *     replica reporting another size is not used
 * @param maxTries failed requests in a row after which a replica is dropped, and probe attempts per
 *     replica
 * @param lowSpeedLimit bytes per second below which a request counts as too slow, 0 for no limit
 * @param lowSpeedTime how long a request may stay below {@code lowSpeedLimit} before it is
 *     abandoned (a failure of its replica)
 * @param maxBytesPerSecond the most all connections together may receive per second, 0 for no limit
 * @param maxRetryAfter the longest {@code Retry-After} honoured; longer ones are cut to it
 */
record Guards(
    long expectedSize,
    int maxTries,
    long lowSpeedLimit,
    Duration lowSpeedTime,
    long maxBytesPerSecond,
    Duration maxRetryAfter) {

  /** The defaults: no expected size, 4 tries, 1 KiB/s for 30 s, no rate limit, 60 s. */
  static final Guards DEFAULT =
      new Guards(-1, 4, 1024, Duration.ofSeconds(30), 0, Duration.ofSeconds(60));

  /**
   * Checks a low-speed limit as both builders (one download, a dataset) take it.
   *
   * @throws IllegalArgumentException if the rate is negative or the time missing or not positive
   */
  static void checkLowSpeed(long bytesPerSecond, Duration time) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("low-speed limit must be 0 or more: " + bytesPerSecond);
    }
    if (time == null || time.isNegative() || time.isZero()) {
      throw new IllegalArgumentException("low-speed time must be positive: " + time);
    }
  }

  /**
   * Checks a rate limit (0: none).
   *
   * @throws IllegalArgumentException if negative
   */
  static void checkRate(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("rate limit must be 0 (none) or more: " + bytesPerSecond);
    }
  }

  /**
   * Checks the longest {@code Retry-After} honoured.
   *
   * @throws IllegalArgumentException if missing or negative
   */
  static void checkRetryAfter(Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException("max Retry-After must not be negative: " + d);
    }
  }
}
