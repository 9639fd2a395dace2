package org.braid.coalloc;

import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a dataset task's end tells of its servers, recorded for the {@link DatasetScheduler} (under
 * its lock): the request latency and the rate of one request of those that delivered, the files and
 * bytes each server served (pieces of a split file included), and the failures that back a server
 * off or drop it. Not thread-safe on its own.
 */
final class DatasetTally {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetScheduler.class);

  /** Whole-file requests at least this large measure the rate of one request. */
  static final long FLOW_MIN = 256 * 1024;

  private final String id;
  private final Map<String, DatasetServer> servers;
  private final int maxStreak;
  private final Duration maxRetryAfter;

  DatasetTally(
      String id, Map<String, DatasetServer> servers, int maxStreak, Duration maxRetryAfter) {
    this.id = id;
    this.servers = servers;
    this.maxStreak = maxStreak;
    this.maxRetryAfter = maxRetryAfter;
  }

  /** Credits the servers of a task whose file was fetched and verified. */
  void fetched(DatasetTask t, DatasetOutcome o, long now) {
    double firstByte = t.firstByteNanos < 0 ? -1 : (t.firstByteNanos - t.startNanos) / 1e9;
    if (t.servers.size() == 1
        && !t.shared
        && t.split == null
        && t.firstByteNanos >= 0
        && o.size() >= FLOW_MIN) {
      // to the body's last byte: the file's verification, flush and rename are no part of it (a
      // flush under a busy disk's writeback made the rate of one request look a fraction of its
      // link's, and the tail handed the 10 Mbit/s mirror pieces it then ended last with)
      long end = t.releasedNanos >= 0 ? t.releasedNanos : now;
      t.servers.get(0).flowed(o.size() / Math.max(1e-3, (end - t.firstByteNanos) / 1e9));
    }
    for (DatasetServer s : t.servers) {
      long b = o.servers().getOrDefault(s.key, 0L);
      if (b > 0 || t.servers.size() == 1) {
        s.succeeded(t.servers.size() == 1 ? firstByte : -1);
        s.files++;
        s.bytes += b;
      }
    }
    if (t.split != null) {
      for (Map.Entry<String, Long> e : o.servers().entrySet()) {
        DatasetServer s = servers.get(e.getKey());
        if (s != null && !t.servers.contains(s)) {
          s.files++; // pieces of the file
          s.bytes += e.getValue();
        }
      }
    }
  }

  /**
   * Records how a piece of a file ended (its owner reports the file): a piece that delivered
   * measures its server's request latency; a failed one counts against its server.
   */
  void piece(DatasetTask t, DatasetOutcome o, long now) {
    DatasetServer s = t.servers.get(0);
    if (o.ok()) {
      s.succeeded(t.firstByteNanos < 0 ? -1 : (t.firstByteNanos - t.startNanos) / 1e9);
      return;
    }
    for (DatasetOutcome.Failure x : o.failures()) {
      failed(s, x, now);
    }
  }

  /** Counts a failed request against its server (backed off, or dropped: then said once). */
  void failed(DatasetServer s, DatasetOutcome.Failure x, long now) {
    boolean wasUsed = s.dropped == null;
    s.failed(now, x.transientFailure(), x.reason(), x.retryAfter(), maxStreak, maxRetryAfter);
    if (wasUsed && s.dropped != null) {
      LOG.warn("[{}] not using {} any more: {}", id, s.key, s.dropped);
    }
  }
}
