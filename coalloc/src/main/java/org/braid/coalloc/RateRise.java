package org.braid.coalloc;

import java.util.concurrent.TimeUnit;

/**
 * Tells when one replica's pipelined connections should be renewed: when the bytes it delivers per
 * window rise by {@link #RISE} or more from one window to the next, its link has room its
 * connections do not use. A connection that has run for a while grows slowly after its link gets
 * faster: BBR (the testbed's and many servers' congestion control) raises its rate estimate by a
 * quarter once every eight round trips, so a mirror that speeds up from 10 to 80 Mbit/s at 200 ms
 * needs about 15 s to be used; CUBIC or Reno after a low {@code ssthresh} are no quicker. A new
 * connection starts afresh (slow start, BBR's start-up) and finds the new rate within a few round
 * trips. A link that is already full delivers the same bytes per window whatever its connections
 * do, so this never fires on a steady replica, and a renewal that finds no room costs only the new
 * connection's start.
 *
 * <p>Bytes are counted in {@link #SLOT_NANOS} slots; a window is {@link #WINDOW_ROUND_TRIPS} round
 * trips (within {@link #MIN_WINDOW_NANOS} and {@link #MAX_WINDOW_NANOS}), long enough to hold a
 * steady BBR cycle's probe and drain. The last window must bring {@link #RISE} times the bytes of
 * each of the two before it, so that the recovery from a dip (a connection replaced, a flow between
 * requests) is no rise. Only replicas at least {@link #MIN_LATENCY_NANOS} away are renewed: nearer
 * ones grow quickly enough by themselves (eight round trips of 20 ms are 160 ms). One renewal at a
 * time per replica, and none within {@link #QUIET_WINDOWS} windows of the replica's first bytes, of
 * a renewal or of a reconnect (whose own start would look like a rise). Thread-safe: the replica's
 * flows share one.
 */
final class RateRise {
  static final long SLOT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  static final int SLOTS = 100;
  static final long MIN_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(400);
  static final long MAX_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(1600);
  static final int WINDOW_ROUND_TRIPS = 4;
  static final double RISE = 1.2;
  static final int QUIET_WINDOWS = 4;

  /** Connections that took less to open (one round trip) are never renewed. */
  static final long MIN_LATENCY_NANOS = TimeUnit.MILLISECONDS.toNanos(80);

  /** Windows of fewer bytes than this are too small to judge (a trickle, an idle replica). */
  static final long MIN_WINDOW_BYTES = 256 * 1024;

  private final long minLatencyNanos;
  private final long[] slots = new long[SLOTS];

  /** Absolute index of the newest slot counted; Long.MIN_VALUE before the first bytes. */
  private long newest = Long.MIN_VALUE;

  /** Absolute slot index before which no renewal is claimed. */
  private long quietUntilSlot = Long.MIN_VALUE;

  private boolean renewing;
  private int renewals;

  /** For replicas at least {@link #MIN_LATENCY_NANOS} away. */
  RateRise() {
    this(MIN_LATENCY_NANOS);
  }

  /** For replicas at least {@code minLatencyNanos} away (tests: 0 for any). */
  RateRise(long minLatencyNanos) {
    this.minLatencyNanos = minLatencyNanos;
  }

  /** Counts {@code n} bytes delivered at {@code now}. */
  synchronized void received(long n, long now) {
    long s = Math.floorDiv(now, SLOT_NANOS);
    if (newest == Long.MIN_VALUE) {
      newest = s;
      quietUntilSlot = Long.MIN_VALUE;
    }
    advance(s);
    if (s >= newest - SLOTS + 1) {
      slots[(int) Math.floorMod(s, (long) SLOTS)] += n;
    }
  }

  /**
   * Whether the caller, one of the replica's connections with the given round-trip time, should
   * open a new connection now; true at most once until {@link #renewed} or {@link #abandoned}.
   */
  synchronized boolean claim(long latencyNanos, long now) {
    if (renewing || newest == Long.MIN_VALUE || latencyNanos < minLatencyNanos) {
      return false;
    }
    long s = Math.floorDiv(now, SLOT_NANOS);
    advance(s);
    int k = windowSlots(latencyNanos);
    if (quietUntilSlot == Long.MIN_VALUE) {
      // first look: the replica's own start (slow start, start-up) must pass first
      quietUntilSlot = s + (long) QUIET_WINDOWS * k;
      return false;
    }
    if (s < quietUntilSlot) {
      return false;
    }
    // complete slots only: [s-k, s-1] against [s-2k, s-k-1] and [s-3k, s-2k-1]
    long last = sum(s - k, s - 1);
    long prev = Math.max(sum(s - 2L * k, s - k - 1), sum(s - 3L * k, s - 2L * k - 1));
    if (last < MIN_WINDOW_BYTES || prev <= 0 || last < RISE * prev) {
      return false;
    }
    renewing = true;
    renewals++;
    return true;
  }

  /** A new connection took over from the one that claimed: quiet for a while. */
  synchronized void renewed(long latencyNanos, long now) {
    renewing = false;
    quiet(latencyNanos, now);
  }

  /** The claimed renewal did not happen (the connection failed or the download ended). */
  synchronized void abandoned(long latencyNanos, long now) {
    renewed(latencyNanos, now);
  }

  /** One of the replica's connections was dropped and made again: its start is no rise. */
  synchronized void reconnected(long latencyNanos, long now) {
    quiet(latencyNanos, now);
  }

  /** Renewals claimed so far. */
  synchronized int renewals() {
    return renewals;
  }

  /** Slots per window for the round-trip time. */
  static int windowSlots(long latencyNanos) {
    long w = Math.max(0, latencyNanos) * WINDOW_ROUND_TRIPS;
    w = Math.max(MIN_WINDOW_NANOS, Math.min(MAX_WINDOW_NANOS, w));
    return (int) Math.max(1, w / SLOT_NANOS);
  }

  private void quiet(long latencyNanos, long now) {
    long s = Math.floorDiv(now, SLOT_NANOS);
    quietUntilSlot = Math.max(quietUntilSlot, s + (long) QUIET_WINDOWS * windowSlots(latencyNanos));
  }

  /** Moves the newest slot to {@code s}, clearing the slots in between. */
  private void advance(long s) {
    if (s <= newest) {
      return;
    }
    long clear = Math.min(s - newest, SLOTS);
    for (long i = 1; i <= clear; i++) {
      slots[(int) Math.floorMod(newest + i, (long) SLOTS)] = 0;
    }
    newest = s;
  }

  private long sum(long from, long to) {
    long t = 0;
    for (long i = Math.max(from, newest - SLOTS + 1); i <= to; i++) {
      t += slots[(int) Math.floorMod(i, (long) SLOTS)];
    }
    return t;
  }
}
