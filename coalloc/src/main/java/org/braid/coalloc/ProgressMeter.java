package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the flows' byte counters into {@link Progress} snapshots: per replica the receive rate
 * since the last snapshot, smoothed over about a second so a display does not flicker. Called from
 * one thread at a time.
 */
final class ProgressMeter {
  /** Weight of a new rate in the smoothed one. */
  private static final double SMOOTHING = 0.3;

  private final long size;
  private final long startNanos;
  private long last;
  private long[] lastReceived;
  private final double[] smooth;

  /**
   * A meter for {@code replicas} replicas and a file of {@code size} bytes, whose transfer started
   * at {@code startNanos} (ticker time).
   */
  ProgressMeter(int replicas, long size, long startNanos) {
    this.size = size;
    this.startNanos = startNanos;
    this.lastReceived = new long[replicas];
    this.smooth = new double[replicas];
  }

  /** Ticker time of the last snapshot; 0 before the first. */
  long last() {
    return last;
  }

  /** The snapshot at {@code now}, given every flow's counters and the bytes committed. */
  Progress next(long now, List<FlowCounters> counters, long committed) {
    long[] received = new long[smooth.length];
    for (FlowCounters c : counters) {
      received[c.replica()] += c.bytesReceived();
    }
    double dt = last == 0 ? 0 : (now - last) / 1e9;
    List<Double> rates = new ArrayList<>();
    for (int i = 0; i < received.length; i++) {
      double inst = dt == 0 ? 0.0 : (received[i] - lastReceived[i]) / dt;
      smooth[i] = smooth[i] == 0 ? inst : smooth[i] + SMOOTHING * (inst - smooth[i]);
      rates.add(smooth[i]);
    }
    lastReceived = received;
    last = now;
    return new Progress(committed, size, (now - startNanos) / 1e9, rates);
  }
}
