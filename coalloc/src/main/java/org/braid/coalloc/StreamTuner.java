package org.braid.coalloc;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chooses the number of parallel TCP streams (GridFTP MODE E data connections) for one server from
 * the rates measured with each count, as paper 003 (section 5) proposes: "use previous history of
 * transfers (consisting of bandwidth measures due to various parallel stream counts)". Paper 002
 * found the best count anywhere between 5 and 20 depending on the path, so no fixed count is right.
 * The measurements come from the journal's history of earlier downloads ({@link #learn}) and from
 * this download's ranges ({@link #record}).
 *
 * <p>The rule, a pure function of the measurements: start at {@link #START} streams; while a count
 * has fewer than {@link #SAMPLES} measurements, use it (measure it); when it has them and it was at
 * least {@link #GAIN} times faster than half as many streams (or is the start), try twice as many
 * (up to {@link #MAX}); when doubling stopped paying, settle on the best count measured, where near
 * ties (within {@link #TIE}) go to fewer streams, which are kinder to the network; when that best
 * count is the start, one stream is measured as well before settling. A measurement is one range
 * that lasted at least {@link #MIN_SECONDS} and ten control round trips (shorter ones measure the
 * start-up, not the streams); the last {@link #KEEP} per count are kept. With a fixed count the
 * tuner always answers it. O(counts) per decision. Thread-safe.
 */
final class StreamTuner {
  static final int START = 2;
  static final int MAX = 16;
  static final int SAMPLES = 2;
  static final double GAIN = 1.10;
  static final double TIE = 1.05;
  static final double MIN_SECONDS = 0.2;
  static final int KEEP = 20;

  private final int fixed;
  private final TreeMap<Integer, Deque<Double>> rates = new TreeMap<>();
  private int current;
  private boolean settled;
  private long rttNanos = Long.MAX_VALUE;

  /**
   * A tuner; {@code fixed} 0 chooses, 1..16 always answers that count.
   *
   * @throws IllegalArgumentException if {@code fixed} is not in 0..16
   */
  StreamTuner(int fixed) {
    if (fixed < 0 || fixed > MAX) {
      throw new IllegalArgumentException("streams must be in 0..16 (0: automatic): " + fixed);
    }
    this.fixed = fixed;
    this.current = fixed > 0 ? fixed : START;
    this.settled = fixed > 0;
  }

  /** The stream count for the next range. */
  synchronized int streams() {
    return current;
  }

  /** Whether the count has stopped changing. */
  synchronized boolean settled() {
    return settled;
  }

  /** Whether the count is chosen here rather than fixed by the user. */
  boolean automatic() {
    return fixed == 0;
  }

  /** A control-channel round trip; the smallest seen counts. */
  synchronized void roundTrip(long nanos) {
    rttNanos = Math.min(rttNanos, nanos);
  }

  /** A range of an earlier download, from the journal: {@code bytes} in {@code nanos}. */
  synchronized void learn(int streams, long bytes, long nanos) {
    if (add(streams, bytes, nanos, 0)) {
      decide();
    }
  }

  /** A range of this download: {@code bytes} in {@code nanos} with {@code streams} streams. */
  synchronized void record(int streams, long bytes, long nanos) {
    long rtt = rttNanos == Long.MAX_VALUE ? 0 : rttNanos;
    if (add(streams, bytes, nanos, 10 * rtt)) {
      decide();
    }
  }

  private boolean add(int streams, long bytes, long nanos, long minNanos) {
    if (fixed > 0 || streams < 1 || streams > MAX || bytes <= 0) {
      return false;
    }
    if (nanos < MIN_SECONDS * 1e9 || nanos < minNanos) {
      return false;
    }
    Deque<Double> d = rates.computeIfAbsent(streams, k -> new ArrayDeque<>());
    d.addLast(bytes / (nanos / 1e9));
    if (d.size() > KEEP) {
      d.removeFirst();
    }
    return true;
  }

  /** Walks the doubling ladder over the measurements (see the class comment). */
  private void decide() {
    int c = START;
    while (true) {
      if (count(c) < SAMPLES) {
        current = c;
        settled = false;
        return;
      }
      boolean paid = c == START || count(c / 2) < SAMPLES || mean(c) >= GAIN * mean(c / 2);
      if (paid && c * 2 <= MAX) {
        c *= 2;
        continue;
      }
      int best = best();
      if (best == START && count(1) < SAMPLES) {
        current = 1; // more than two did not pay: see whether one does as well as two
        settled = false;
        return;
      }
      current = best;
      settled = true;
      return;
    }
  }

  private int count(int streams) {
    Deque<Double> d = rates.get(streams);
    return d == null ? 0 : d.size();
  }

  private double mean(int streams) {
    return rates.get(streams).stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /** The count with the best mean rate among those fully measured; near ties go to fewer. */
  private int best() {
    int best = START;
    double rate = -1;
    for (Map.Entry<Integer, Deque<Double>> e : rates.entrySet()) {
      if (e.getValue().size() >= SAMPLES && mean(e.getKey()) > rate * TIE) {
        best = e.getKey();
        rate = mean(best);
      }
    }
    return best;
  }

  @Override
  public synchronized String toString() {
    StringBuilder b = new StringBuilder(current + (current == 1 ? " stream" : " streams"));
    b.append(fixed > 0 ? " (fixed)" : settled ? " (chosen)" : " (measuring)");
    for (int k : rates.keySet()) {
      b.append(String.format(" %d:%.1fMB/s x%d", k, mean(k) / 1e6, count(k)));
    }
    return b.toString();
  }
}
