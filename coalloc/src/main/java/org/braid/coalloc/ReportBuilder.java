package org.braid.coalloc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Builds the {@link DownloadReport} of a completed download from its scheduler's events. */
final class ReportBuilder {
  private ReportBuilder() {}

  /**
   * The report of the scheduler's completed download.
   *
   * @param id the download's log id
   * @param spec what the download was built with
   * @param s the scheduler, complete
   * @param resumed bytes taken from an earlier run
   * @param start when the transfer started (wall clock)
   * @param seconds the transfer time
   * @param digests the output's digests by algorithm
   */
  static DownloadReport build(
      String id,
      DownloadSpec spec,
      BlockScheduler s,
      long resumed,
      Instant start,
      double seconds,
      Map<String, String> digests) {
    List<BlockEvent> events = s.events();
    List<ReplicaReport> reps = new ArrayList<>();
    for (Replica r : s.replicas()) {
      reps.add(replica(r, events, seconds));
    }
    long size = s.size();
    return new DownloadReport(
        id,
        spec.output(),
        spec.scheme().name(),
        size,
        resumed,
        start,
        seconds,
        (size - resumed) / seconds,
        digests,
        reps,
        events);
  }

  private static ReplicaReport replica(Replica r, List<BlockEvent> events, double seconds) {
    long bytes = 0;
    long received = 0;
    int blocks = 0;
    int failures = 0;
    List<BlockEvent> mine = new ArrayList<>();
    for (BlockEvent e : events) {
      if (e.replica() != r.index) {
        continue;
      }
      bytes += e.written();
      received += e.endOffset() - e.offset();
      if (e.written() > 0) {
        blocks++;
      }
      if (e.result().startsWith("error")) {
        failures++;
      }
      mine.add(e);
    }
    double busy = busyNanos(mine) / 1e9;
    return new ReplicaReport(
        r.uri,
        bytes,
        received,
        blocks,
        busy > 0 ? received / busy : 0,
        Math.max(0, seconds - busy),
        failures,
        r.dropped ? r.dropReason : null);
  }

  /** The time during which at least one of the requests was open: the union of their spans. */
  static long busyNanos(List<BlockEvent> requests) {
    List<BlockEvent> sorted = new ArrayList<>(requests);
    sorted.sort(Comparator.comparingLong(BlockEvent::startNanos));
    long total = 0;
    long curS = Long.MIN_VALUE;
    long curE = Long.MIN_VALUE;
    for (BlockEvent e : sorted) {
      if (e.startNanos() > curE) {
        if (curE > curS) {
          total += curE - curS;
        }
        curS = e.startNanos();
        curE = e.endNanos();
      } else {
        curE = Math.max(curE, e.endNanos());
      }
    }
    if (curE > curS) {
      total += curE - curS;
    }
    return total;
  }
}
