package org.braid.predictors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable series of samples in time order (equal timestamps allowed).
 *
 * <p>Stored as primitive arrays so that predictors can replay long histories without boxing.
 * Thread-safe: instances never change after construction.
 */
public final class Series {

  private final String name;
  private final long[] times;
  private final double[] values;
  private final long[] sizes;

  private Series(String name, long[] times, double[] values, long[] sizes) {
    this.name = name;
    this.times = times;
    this.values = values;
    this.sizes = sizes;
  }

  /**
   * Makes a series from samples that are already in time order.
   *
   * @throws NullPointerException if name, the list or a sample is null
   * @throws IllegalArgumentException if a sample is earlier than the one before it, naming both
   */
  public static Series of(String name, List<Sample> samples) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(samples, "samples");
    int n = samples.size();
    long[] t = new long[n];
    double[] v = new double[n];
    long[] s = new long[n];
    for (int i = 0; i < n; i++) {
      Sample x = Objects.requireNonNull(samples.get(i), "sample " + i);
      t[i] = x.time().toEpochMilli();
      v[i] = x.value();
      s[i] = x.size();
      if (i > 0 && t[i] < t[i - 1]) {
        throw new IllegalArgumentException(
            "series '"
                + name
                + "': sample "
                + i
                + " at "
                + x.time()
                + " is earlier than sample "
                + (i - 1)
                + " at "
                + Instant.ofEpochMilli(t[i - 1]));
      }
    }
    return new Series(name, t, v, s);
  }

  /** The empty series with the given name. */
  public static Series empty(String name) {
    return new Series(
        Objects.requireNonNull(name, "name"), new long[0], new double[0], new long[0]);
  }

  /** A builder that checks each sample as it is added. */
  public static Builder builder(String name) {
    return new Builder(Objects.requireNonNull(name, "name"));
  }

  /** The series' name, for messages and reports. */
  public String name() {
    return name;
  }

  /** The number of samples. */
  public int size() {
    return times.length;
  }

  /** Whether the series has no samples. */
  public boolean isEmpty() {
    return times.length == 0;
  }

  /**
   * The sample at the given index.
   *
   * @throws IndexOutOfBoundsException if the index is outside the series
   */
  public Sample get(int i) {
    return new Sample(Instant.ofEpochMilli(times[i]), values[i], sizes[i]);
  }

  /** The time of sample {@code i} in epoch milliseconds. */
  public long timeMillis(int i) {
    return times[i];
  }

  /** The value of sample {@code i}. */
  public double value(int i) {
    return values[i];
  }

  /** The size in bytes of sample {@code i}, or {@link Sample#UNKNOWN_SIZE}. */
  public long sizeBytes(int i) {
    return sizes[i];
  }

  /** The samples as a list. */
  public List<Sample> samples() {
    List<Sample> out = new ArrayList<>(size());
    for (int i = 0; i < size(); i++) {
      out.add(get(i));
    }
    return out;
  }

  /** The first {@code n} samples as a series with the same name. */
  public Series head(int n) {
    if (n < 0 || n > size()) {
      throw new IndexOutOfBoundsException("head " + n + " of a series of " + size());
    }
    return new Series(
        name, Arrays.copyOf(times, n), Arrays.copyOf(values, n), Arrays.copyOf(sizes, n));
  }

  /** The index of the last sample at or before the given time, or -1 if there is none. */
  public int lastIndexAtOrBefore(long timeMillis) {
    int lo = 0;
    int hi = times.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (times[mid] <= timeMillis) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  @Override
  public String toString() {
    return "Series[" + name + ", " + size() + " samples]";
  }

  /** Builds a series one checked sample at a time. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private long[] times = new long[16];
    private double[] values = new double[16];
    private long[] sizes = new long[16];
    private int n;

    private Builder(String name) {
      this.name = name;
    }

    /**
     * Adds a sample after the ones added so far.
     *
     * @throws IllegalArgumentException if the sample is out of order or its value is not a finite,
     *     non-negative number
     */
    public Builder add(Instant time, double value, long size) {
      Sample s = new Sample(time, value, size);
      long t = s.time().toEpochMilli();
      if (n > 0 && t < times[n - 1]) {
        throw new IllegalArgumentException(
            "series '"
                + name
                + "': sample "
                + n
                + " at "
                + time
                + " is earlier than sample "
                + (n - 1)
                + " at "
                + Instant.ofEpochMilli(times[n - 1]));
      }
      if (n == times.length) {
        times = Arrays.copyOf(times, n * 2);
        values = Arrays.copyOf(values, n * 2);
        sizes = Arrays.copyOf(sizes, n * 2);
      }
      times[n] = t;
      values[n] = value;
      sizes[n] = size;
      n++;
      return this;
    }

    /** Adds a sample without a size. */
    public Builder add(Instant time, double value) {
      return add(time, value, Sample.UNKNOWN_SIZE);
    }

    /** The number of samples added so far. */
    public int size() {
      return n;
    }

    /** The series of the samples added so far. */
    public Series build() {
      return new Series(
          name, Arrays.copyOf(times, n), Arrays.copyOf(values, n), Arrays.copyOf(sizes, n));
    }
  }
}
