package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;

/**
 * Every request of the download as a {@link BlockEvent}, in the order they ended, with times
 * relative to the download's start: what the report, the timeline and the journal are made of. Not
 * thread-safe: guarded by the scheduler's lock.
 */
final class EventLog {
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
