package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request of the download as a {@link BlockEvent}, in the order they ended, with times
 * relative to the download's start: what the report, the timeline and the journal are made of. Not
 * thread-safe: guarded by the scheduler's lock.
 */
final class EventLog {
  private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
  private final long startNanos;
  private final List<BlockEvent> events = new ArrayList<>();

  /** A log for a download that started at {@code startNanos} (ticker time). */
  EventLog(long startNanos) {
    this.startNanos = startNanos;
  }

  long startNanos() {
    return startNanos;
  }

  /** A request ended at {@code now} with the given result. */
  void request(Lease l, long now, String result) {
    Flow f = l.flow;
    events.add(
        new BlockEvent(
            f.replica.index,
            f.connection,
            l.from,
            l.from + l.received,
            l.written,
            l.startNanos - startNanos,
            now - startNanos,
            result,
            l.streams,
            l.firstByteNanos < 0 ? -1 : l.firstByteNanos - startNanos));
    if (LOG.isDebugEnabled()) {
      // every request's timing, for a download's story at a glance (the plot draws the same)
      LOG.debug(
          "{} [{}, {}) {} bytes, sent at {} ms, first byte at {} ms, ended at {} ms: {}",
          f.label(),
          l.from,
          l.from + l.received,
          l.written,
          (l.startNanos - startNanos) / 1_000_000,
          l.firstByteNanos < 0 ? -1 : (l.firstByteNanos - startNanos) / 1_000_000,
          (now - startNanos) / 1_000_000,
          result);
    }
  }

  /** A piece that a replica wrote bytes of failed its check: an empty failed request. */
  void badPiece(int replica, ByteRange piece, long now, String reason) {
    events.add(
        new BlockEvent(
            replica,
            0,
            piece.start(),
            piece.start(),
            0,
            now - startNanos,
            now - startNanos,
            "error: " + reason));
  }

  /** A copy of the events so far. */
  List<BlockEvent> snapshot() {
    return List.copyOf(events);
  }
}
