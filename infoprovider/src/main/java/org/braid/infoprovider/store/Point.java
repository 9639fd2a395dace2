package org.braid.infoprovider.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One {@code <timestamp, value>} observation of a probe series.
 *
 * @param time when it was observed
 * @param value the observed value (finite)
 */
public record Point(Instant time, double value) {
  /**
   * Checks the point.
   *
   * @throws NullPointerException if time is null
   * @throws IllegalArgumentException if value is NaN or infinite
   */
  public Point {
    Objects.requireNonNull(time, "time");
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("value must be finite: " + value);
    }
  }
}
