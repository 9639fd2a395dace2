package org.braid.coalloc;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a download run's record to its {@link Journal} once, when the run ends (complete, failed
 * or cancelled): one line per replica saying what it delivered over the whole run, so that no
 * single request, however short, becomes a measurement of its own. A journal that cannot be written
 * is logged, not fatal; a process killed before the end writes nothing for that run. Called from
 * one thread at a time.
 */
final class JournalFeed {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final String id;
  private final Journal journal;
  private final long size;
  private final Instant start;
  private boolean written;

  /**
   * A feed for the download with the given log id into {@code journal} (or null for none), for a
   * file of {@code size} bytes and a transfer that started at {@code start}.
   */
  JournalFeed(String id, Journal journal, long size, Instant start) {
    this.id = id;
    this.journal = journal;
    this.size = size;
    this.start = start;
  }

  /**
   * Appends the run's record, once: {@code events} are all of its requests, {@code replicas} the
   * scheduler's replicas (read after the workers stopped).
   */
  void finish(List<BlockEvent> events, List<Replica> replicas) {
    if (journal == null || written) {
      return;
    }
    written = true;
    List<Journal.Outcome> outcomes = new ArrayList<>();
    for (Replica r : replicas) {
      outcomes.add(new Journal.Outcome(r.uri, r.dropped ? r.dropReason : null));
    }
    try {
      journal.append(events, outcomes, size, start);
    } catch (IOException e) {
      LOG.warn("[{}] cannot append to the journal {}: {}", id, journal.path(), e.toString());
    }
  }
}
