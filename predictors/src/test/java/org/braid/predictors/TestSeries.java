package org.braid.predictors;

import java.time.Instant;

/** Small helpers for building series in tests. */
final class TestSeries {
  private TestSeries() {}

  static final long HOUR = 3_600_000L;

  /** A series of values one second apart, starting at the epoch, size unknown. */
  static Series of(double... values) {
    Series.Builder b = Series.builder("test");
    for (int i = 0; i < values.length; i++) {
      b.add(Instant.ofEpochSecond(i), values[i]);
    }
    return b.build();
  }

  /** The prediction after feeding all values into a fresh state, for a sample one second later. */
  static double next(Predictor p, double... values) {
    Series s = of(values);
    return p.predict(s, values.length * 1000L, Sample.UNKNOWN_SIZE);
  }
}
