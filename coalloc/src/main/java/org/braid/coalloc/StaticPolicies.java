package org.braid.coalloc;

import java.util.List;

/** Helpers for the static schemes (single, brute force, history-based). */
final class StaticPolicies {
  private StaticPolicies() {}

  /** Splits {@code total} bytes in proportion to weights; the last share takes the rounding. */
  static long[] shares(long total, double[] weights) {
    double sum = 0;
    for (double w : weights) {
      sum += w;
    }
    long[] out = new long[weights.length];
    long given = 0;
    for (int i = 0; i < weights.length; i++) {
      out[i] =
          i == weights.length - 1 ? total - given : (long) Math.floor(total * weights[i] / sum);
      given += out[i];
    }
    return out;
  }

  static void reserveByWeight(PolicyView s, List<Flow> flows, double[] weights) {
    long[] sh = shares(s.freeBytes(), weights);
    for (int i = 0; i < flows.size(); i++) {
      s.reserve(flows.get(i), sh[i]);
    }
  }
}
