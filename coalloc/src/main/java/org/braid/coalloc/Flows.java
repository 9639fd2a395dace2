package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The download's flows, {@code connections} per replica in replica order, and the rate the schemes
 * assume for each. Not thread-safe: guarded by the scheduler's lock.
 */
final class Flows {
  private final List<Flow> all = new ArrayList<>();

  /**
   * Flows for every replica, each started at {@code startNanos} with its share of the rate; a
   * replica that sends only the whole file has one (a second would read the same bytes again).
   */
  Flows(List<Replica> replicas, int connections, long startNanos) {
    for (Replica r : replicas) {
      int n = r.wholeFile ? 1 : connections;
      for (int c = 0; c < n; c++) {
        Flow f = new Flow(all.size(), r, c, r.predictedRate / n);
        f.lastProgressNanos = startNanos;
        all.add(f);
      }
    }
  }

  /** Every flow, in replica order (an unmodifiable view). */
  List<Flow> all() {
    return Collections.unmodifiableList(all);
  }

  /**
   * A rate for a flow: measured, else predicted, else the mean of the known ones, else 0; fading
   * while its open request is silent, so a replica that stops sending (or never starts) soon looks
   * slow enough for its range to be taken over.
   */
  double rateOf(Flow f, long now) {
    double base;
    if (f.known()) {
      base = f.estimate(now);
    } else {
      double sum = 0;
      int n = 0;
      for (Flow g : all) {
        if (!g.replica.dropped && g.known()) {
          sum += g.estimate(now);
          n++;
        }
      }
      base = n == 0 ? 0 : sum / n;
    }
    return base * f.fade(now);
  }

  /**
   * Stops the replica's flows: their reservations return to the pool and their open requests are
   * cancelled with the given reason.
   */
  void stop(Replica r, RangePool pool, String reason) {
    for (Flow f : all) {
      if (f.replica == r) {
        for (ByteRange res : f.reserved) {
          pool.giveBack(res.start(), res.end());
        }
        f.reserved.clear();
        if (f.current != null) {
          f.current.cancelReason = reason;
        }
        if (f.next != null) {
          f.next.cancelReason = reason;
        }
      }
    }
  }

  /** A consistent copy of every flow's counters, the open request's bytes included. */
  List<FlowCounters> counters() {
    List<FlowCounters> out = new ArrayList<>();
    for (Flow f : all) {
      long extra = 0;
      if (f.current != null) {
        extra = f.current.received;
      }
      if (f.next != null) {
        extra += f.next.received;
      }
      out.add(new FlowCounters(f.replica.index, f.bytesWritten, f.bytesReceived + extra, f.blocks));
    }
    return out;
  }
}
