package org.braid.coalloc.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Merges the lines of one download and one server into one version 2 line ({@link
 * JournalLine#aggregate}).
 */
final class JournalAggregate {

  private JournalAggregate() {}

  static JournalLine of(List<JournalLine> lines) {
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("no journal lines to aggregate");
    }
    JournalLine first = lines.get(0);
    if (lines.size() == 1 && !first.isRequest()) {
      return first;
    }
    long bytes = 0;
    long received = 0;
    int requests = 0;
    int failures = 0;
    Instant start = first.start();
    Instant end = first.end();
    boolean ok = false;
    boolean sharing = true;
    long sharedMillis = 0;
    int connections = 1;
    int replicas = 1;
    int flows = 1;
    long deliveredBusy = 0;
    List<JournalLine> requestLines = new ArrayList<>();
    for (JournalLine l : lines) {
      if (!l.download().equals(first.download()) || !l.server().equals(first.server())) {
        throw new IllegalArgumentException(
            "journal lines of different replicas or downloads: "
                + first.download()
                + " "
                + first.server()
                + ", "
                + l.download()
                + " "
                + l.server());
      }
      bytes += l.bytes();
      received += l.received();
      requests += l.requests();
      failures += l.failures();
      start = l.start().isBefore(start) ? l.start() : start;
      end = l.end().isAfter(end) ? l.end() : end;
      ok |= l.result().equals("ok");
      if (l.isRequest()) {
        requestLines.add(l);
        sharing = false;
      } else {
        deliveredBusy += l.busyMillis();
        sharedMillis += l.sharedMillis();
        connections = Math.max(connections, l.connections());
        replicas = Math.max(replicas, l.replicas());
        flows = Math.max(flows, l.flows());
      }
    }
    long span = JournalChecks.spanMillis(start, end);
    long busy = Math.min(span, deliveredBusy + union(requestLines));
    connections = Math.max(connections, maxOpen(requestLines));
    String result = ok ? "ok" : lines.get(lines.size() - 1).result();
    return new JournalLine(
        2,
        first.download(),
        first.url(),
        first.server(),
        first.peer(),
        first.path(),
        -1,
        first.fileSize(),
        bytes,
        received,
        start,
        end,
        busy,
        requests,
        failures,
        Math.min(connections, requests),
        sharing ? Math.min(sharedMillis, busy) : -1,
        sharing ? replicas : 0,
        sharing ? Math.max(flows, Math.max(connections, replicas)) : 0,
        first.streams(),
        first.protocol(),
        result);
  }

  /** The milliseconds covered by at least one of the lines' spans. */
  private static long union(List<JournalLine> lines) {
    List<JournalLine> sorted = new ArrayList<>(lines);
    sorted.sort(Comparator.comparing(JournalLine::start));
    long total = 0;
    Instant curS = null;
    Instant curE = null;
    for (JournalLine l : sorted) {
      if (curE == null || l.start().isAfter(curE)) {
        total += JournalChecks.spanMillis(curS, curE);
        curS = l.start();
        curE = l.end();
      } else if (l.end().isAfter(curE)) {
        curE = l.end();
      }
    }
    return total + JournalChecks.spanMillis(curS, curE);
  }

  /** The most lines whose spans were open at once (a line ending as another starts: not both). */
  private static int maxOpen(List<JournalLine> lines) {
    List<long[]> points = new ArrayList<>();
    for (JournalLine l : lines) {
      points.add(new long[] {l.start().toEpochMilli(), 1});
      points.add(new long[] {l.end().toEpochMilli(), -1});
    }
    // ends before starts at the same instant
    points.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
    int open = 0;
    int max = 0;
    for (long[] p : points) {
      open += (int) p[1];
      max = Math.max(max, open);
    }
    return max;
  }
}
