package org.braid.predictors;

import java.time.Instant;
import java.util.Objects;

/**
 * One observation: a transfer's bandwidth, or a network or disk probe value, at a point in time.
 *
 * @param time when the observation was made (for a transfer: its start)
 * @param value the observed value: bytes per second for transfers, the probe's unit otherwise;
 *     finite and not negative
 * @param size the transfer's size in bytes, or {@link #UNKNOWN_SIZE} for probes and unknown sizes
 */
public record Sample(Instant time, double value, long size) {

  /** The size of a sample that is not a transfer, or whose size is unknown. */
  public static final long UNKNOWN_SIZE = -1;

  /**
   * Checks the sample.
   *
   * @throws NullPointerException if time is null
   * @throws IllegalArgumentException if value is NaN, infinite or negative, or size is below -1
   */
  public Sample {
    Objects.requireNonNull(time, "time");
    if (!Double.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(
          "sample value must be finite and not negative: " + value + " at " + time);
    }
    if (size < UNKNOWN_SIZE) {
      throw new IllegalArgumentException("sample size must be -1 (unknown) or more: " + size);
    }
  }

  /** A probe sample without a size. */
  public static Sample of(Instant time, double value) {
    return new Sample(time, value, UNKNOWN_SIZE);
  }
}
