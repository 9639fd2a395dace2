package org.braid.coalloc;

import java.util.ArrayDeque;

/**
 * One connection to one replica: the unit the schemes balance (the paper's "flow"). Rates are
 * exponentially weighted moving averages of delivered bytes per second; guarded by the scheduler's
 * lock unless noted.
 */
final class Flow {
  /** Time constant of the rate average, in nanoseconds. */
  static final double TAU_NANOS = 2e9;

  final int id;
  final Replica replica;
  final int connection;
  final ArrayDeque<ByteRange> reserved = new ArrayDeque<>();

  /** Current rate estimate in bytes per second; the prediction until measured. */
  double rate;

  boolean measured;

  /** Rate over the last full sample window, in bytes per second; 0 before one was measured. */
  double recent;

  /** Last measured time from request to first byte, in nanoseconds. */
  long latencyNanos = -1;

  /** Whether {@link #latencyNanos} is a folded first request's, to be replaced by the next. */
  private boolean latencyProvisional;

  /**
   * The flow's last request closed its connection (cut short with much left, failed): its next one
   * pays a connect and TCP's start again ({@link EndGame#coldSeconds}). Set by the fetch loop.
   */
  volatile boolean cold;

  long lastProgressNanos;

  /** The lease whose bytes the flow reads now, or null. */
  Lease current;

  /**
   * A lease requested ahead while {@link #current} still runs (pipelining), or null; it becomes
   * current when that one ends.
   */
  Lease next;

  // aggressive scheme state
  int multiplier = 1;
  boolean stopped;

  // report
  long bytesWritten;
  long bytesReceived;
  int blocks;
  long busyNanos;

  Flow(int id, Replica replica, int connection, double predictedRate) {
    this.id = id;
    this.replica = replica;
    this.connection = connection;
    this.rate = predictedRate;
  }

  /** Rate samples are averaged over windows of at least this length. */
  static final long WINDOW_NANOS = 250_000_000L;

  private long windowStart = -1;
  private long windowBytes;

  /**
   * The rate estimate: the moving average once a window was measured; before that the current
   * request's bytes over its age, else the prediction; 0 when nothing is known.
   */
  double estimate(long now) {
    if (measured) {
      return rate;
    }
    if (current != null && current.received > 0 && now > current.activeNanos) {
      return current.received * 1e9 / (now - current.activeNanos);
    }
    return rate;
  }

  /**
   * The factor by which an estimate fades while the flow's open request has been silent for longer
   * than the time constant (before its first byte too): 1 otherwise.
   */
  double fade(long now) {
    long silent = now - lastProgressNanos;
    return current != null && silent > TAU_NANOS ? TAU_NANOS / silent : 1;
  }

  boolean known() {
    return measured || rate > 0 || (current != null && current.received > 0);
  }

  /**
   * A chunk of {@code bytes} of its current request arrived at {@code now}: the first one measures
   * the request latency, keeping the smallest seen (the first request also pays for opening the
   * connection). A folded first request's measure (sent before the scheduler's clock started: it
   * measured 10-100 ms for replicas 50-200 ms away, and as the smallest was kept for the whole
   * download) only stands until the flow's next request measures one.
   */
  void received(Lease l, long bytes, long now) {
    if (l.firstByteNanos < 0) {
      l.firstByteNanos = now;
      long lat = now - l.startNanos;
      if (l.folded) {
        if (latencyNanos < 0) {
          latencyNanos = lat;
          latencyProvisional = true;
        }
      } else if (latencyNanos < 0 || latencyProvisional) {
        latencyNanos = lat;
        latencyProvisional = false;
      } else {
        latencyNanos = Math.min(latencyNanos, lat);
      }
    }
    sample(bytes, now);
  }

  /** A chunk of {@code bytes} arrived at {@code now}. */
  void sample(long bytes, long now) {
    if (windowStart < 0) {
      windowStart = now;
      windowBytes = 0;
    } else {
      windowBytes += bytes;
    }
    lastProgressNanos = now;
    long dt = now - windowStart;
    if (dt < WINDOW_NANOS) {
      return;
    }
    double inst = windowBytes * 1e9 / dt;
    recent = inst;
    if (!measured) {
      rate = inst;
      measured = true;
    } else {
      rate += (1 - Math.exp(-dt / TAU_NANOS)) * (inst - rate);
    }
    windowStart = now;
    windowBytes = 0;
  }

  /**
   * A request ended: the next one starts a new window (the gap is not transfer time). A flow whose
   * requests were all shorter than a window takes the request's own rate, latency included, so that
   * it is not mistaken for an unknown one.
   */
  void endRequest(Lease l, long now) {
    if (next == null) {
      windowStart = -1;
    }
    if (!measured && l.received > 0 && now > l.activeNanos) {
      rate = l.received * 1e9 / (now - l.activeNanos);
      measured = true;
    }
  }

  /**
   * The lease ended: the one requested ahead, if any, becomes the one the flow reads, and its time
   * as such starts now.
   */
  void leaseEnded(Lease l, long now) {
    if (current == l) {
      current = next;
      next = null;
      if (current != null) {
        current.activeNanos = Math.max(current.activeNanos, now);
      }
    } else if (next == l) {
      next = null;
    }
  }

  /** Adds an ended request's bytes and time to the flow's counters. */
  void account(Lease l, long now) {
    bytesWritten += l.written;
    bytesReceived += l.received;
    if (l.written > 0) {
      blocks++;
    }
    busyNanos += now - l.activeNanos;
  }

  String label() {
    return replica.uri + "#" + connection;
  }
}
