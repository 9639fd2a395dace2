package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What each replica delivered in a download, from its requests ({@link BlockEvent}s): the journal's
 * version 2 record. A sweep over the requests' transfer spans gives each replica its busy time (the
 * union of those spans), the part of it shared with other replicas, and the most requests and
 * replicas open at once while it was busy. Cost: O(n log n + n r) for n requests and r replicas.
 * Stateless.
 *
 * <p>A request's transfer span runs from its start plus the replica's <i>latency</i> (the shortest
 * wait for a first byte among its requests: round trip and server time, which every request pays)
 * to its end. Counted as transfer, that wait would make a replica's rate depend on how many
 * requests the scheduler happened to send it (at a 20 ms round trip, a 1 MB request at 10 MB/s
 * measures 17% slow). The shortest wait, not each request's own, is taken off: a first byte read
 * late because the client was busy arrived earlier than it was read, and taking that whole wait off
 * would credit the replica with bytes it sent before the span began.
 */
final class Deliveries {

  /**
   * One replica's delivery; times in nanoseconds since the download started.
   *
   * @param replica the replica's index
   * @param bytes bytes put into the file
   * @param received bytes received
   * @param requests its requests (failed ones and empty failed piece checks included)
   * @param failures failed ones
   * @param lastError the last failed request's result, or null
   * @param startNanos its first request's start
   * @param endNanos its last request's end
   * @param busyNanos time with at least one request transferring (from its first byte)
   * @param sharedNanos of that, time during which another replica had a request open too
   * @param connections the most requests it had open at once (at least 1)
   * @param replicas the most replicas with a request open at once during its busy time (at least 1)
   * @param flows the most requests open at once over all replicas during its busy time
   */
  record Delivery(
      int replica,
      long bytes,
      long received,
      int requests,
      int failures,
      String lastError,
      long startNanos,
      long endNanos,
      long busyNanos,
      long sharedNanos,
      int connections,
      int replicas,
      int flows) {}

  private Deliveries() {}

  /** The delivery of every replica with at least one request, by replica index. */
  static List<Delivery> of(List<BlockEvent> events, int replicaCount) {
    Totals t = new Totals(replicaCount);
    for (BlockEvent e : events) {
      t.add(e);
    }
    sweep(events, t);
    List<Delivery> out = new ArrayList<>();
    for (int r = 0; r < replicaCount; r++) {
      if (t.requests[r] == 0) {
        continue;
      }
      int conn = Math.max(1, t.connections[r]);
      int reps = Math.max(1, t.replicas[r]);
      out.add(
          new Delivery(
              r,
              t.bytes[r],
              t.received[r],
              t.requests[r],
              t.failures[r],
              t.lastError[r],
              t.start[r],
              t.end[r],
              t.busy[r],
              t.shared[r],
              conn,
              reps,
              Math.max(t.flows[r], Math.max(conn, reps))));
    }
    return out;
  }

  /** Per-replica sums and extremes. */
  private static final class Totals {
    final long[] bytes;
    final long[] received;
    final int[] requests;
    final int[] failures;
    final String[] lastError;
    final long[] start;
    final long[] end;
    final long[] busy;
    final long[] shared;
    final int[] connections;
    final int[] replicas;
    final int[] flows;
    final long[] latency;

    Totals(int n) {
      bytes = new long[n];
      received = new long[n];
      requests = new int[n];
      failures = new int[n];
      lastError = new String[n];
      start = new long[n];
      end = new long[n];
      busy = new long[n];
      shared = new long[n];
      connections = new int[n];
      replicas = new int[n];
      flows = new int[n];
      latency = new long[n];
      Arrays.fill(latency, Long.MAX_VALUE);
      Arrays.fill(start, Long.MAX_VALUE);
      Arrays.fill(end, Long.MIN_VALUE);
    }

    /** The replica's shortest wait for a first byte; 0 when none is known. */
    long latency(int r) {
      return latency[r] == Long.MAX_VALUE ? 0 : latency[r];
    }

    void add(BlockEvent e) {
      int r = e.replica();
      if (e.firstByteNanos() >= e.startNanos()) {
        latency[r] = Math.min(latency[r], e.firstByteNanos() - e.startNanos());
      }
      bytes[r] += Math.max(0, e.written());
      received[r] += Math.max(0, e.endOffset() - e.offset());
      requests[r]++;
      if (e.result().startsWith("error")) {
        failures[r]++;
        lastError[r] = e.result();
      }
      start[r] = Math.min(start[r], e.startNanos());
      end[r] = Math.max(end[r], Math.max(e.startNanos(), e.endNanos()));
    }
  }

  /**
   * Walks the requests' starts and ends in time order (ends first at equal times, so a request that
   * starts as another ends on its connection is not counted as a second one open).
   */
  private static void sweep(List<BlockEvent> events, Totals t) {
    int n = t.requests.length;
    List<long[]> points = new ArrayList<>(events.size() * 2);
    for (BlockEvent e : events) {
      long f = Math.max(e.startNanos(), e.endNanos());
      long s = Math.min(f, e.startNanos() + t.latency(e.replica()));
      if (f > s) {
        points.add(new long[] {s, 1, e.replica()});
        points.add(new long[] {f, -1, e.replica()});
      }
    }
    points.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
    int[] open = new int[n];
    int busyReplicas = 0;
    int totalOpen = 0;
    long prev = 0;
    for (long[] p : points) {
      long dt = p[0] - prev;
      if (dt > 0 && busyReplicas > 0) {
        for (int r = 0; r < n; r++) {
          if (open[r] > 0) {
            t.busy[r] += dt;
            if (busyReplicas > 1) {
              t.shared[r] += dt;
            }
          }
        }
      }
      prev = p[0];
      int r = (int) p[2];
      if (p[1] > 0) {
        busyReplicas += open[r] == 0 ? 1 : 0;
        open[r]++;
        totalOpen++;
        for (int q = 0; q < n; q++) {
          if (open[q] > 0) {
            t.connections[q] = Math.max(t.connections[q], open[q]);
            t.replicas[q] = Math.max(t.replicas[q], busyReplicas);
            t.flows[q] = Math.max(t.flows[q], totalOpen);
          }
        }
      } else {
        open[r]--;
        totalOpen--;
        busyReplicas -= open[r] == 0 ? 1 : 0;
      }
    }
  }
}
