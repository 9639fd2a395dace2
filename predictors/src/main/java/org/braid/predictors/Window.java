package org.braid.predictors;

import java.util.Arrays;

/**
 * A growable ring buffer of (time, value) pairs, bounded by count or by age. Package-private
 * building block of the windowed predictors.
 */
final class Window {
  private final int maxCount; // Integer.MAX_VALUE when bounded by age only
  private final long maxAgeMillis; // Long.MAX_VALUE when bounded by count only
  private long[] times;
  private double[] values;
  private int head; // index of the oldest element
  private int n;

  Window(int maxCount, long maxAgeMillis) {
    this.maxCount = maxCount;
    this.maxAgeMillis = maxAgeMillis;
    int cap = maxCount == Integer.MAX_VALUE ? 16 : Math.min(Math.max(maxCount, 1), 1 << 16);
    times = new long[cap];
    values = new double[cap];
  }

  static Window lastCount(int count) {
    return new Window(count, Long.MAX_VALUE);
  }

  static Window lastMillis(long millis) {
    return new Window(Integer.MAX_VALUE, millis);
  }

  void add(long t, double v) {
    if (n == maxCount) {
      head = (head + 1) % times.length;
      n--;
    }
    if (n == times.length) {
      grow();
    }
    int i = (head + n) % times.length;
    times[i] = t;
    values[i] = v;
    n++;
  }

  private void grow() {
    long[] t = new long[times.length * 2];
    double[] v = new double[values.length * 2];
    for (int k = 0; k < n; k++) {
      t[k] = times[(head + k) % times.length];
      v[k] = values[(head + k) % values.length];
    }
    times = t;
    values = v;
    head = 0;
  }

  /** Drops pairs older than the age bound, measured back from {@code now}. */
  void evict(long now) {
    if (maxAgeMillis == Long.MAX_VALUE) {
      return;
    }
    long oldest = now - maxAgeMillis;
    while (n > 0 && times[head] < oldest) {
      head = (head + 1) % times.length;
      n--;
    }
  }

  int size() {
    return n;
  }

  /** The k-th value, oldest first. */
  double value(int k) {
    return values[(head + k) % values.length];
  }

  double last() {
    return value(n - 1);
  }

  double sum() {
    double s = 0;
    for (int k = 0; k < n; k++) {
      s += value(k);
    }
    return s;
  }

  /** The values, oldest first, in a new array. */
  double[] copy() {
    double[] out = new double[n];
    for (int k = 0; k < n; k++) {
      out[k] = value(k);
    }
    return out;
  }

  /** The values sorted, in {@code scratch} if it is large enough. */
  double[] sorted(double[] scratch) {
    double[] a = scratch != null && scratch.length >= n ? scratch : new double[n];
    for (int k = 0; k < n; k++) {
      a[k] = value(k);
    }
    Arrays.sort(a, 0, n);
    return a;
  }
}
