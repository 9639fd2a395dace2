package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a download's ended requests to its {@link Journal} as they accumulate, each once; a
 * journal that cannot be written is logged, not fatal. Without a journal it only counts. Called
 * from one thread at a time.
 */
final class JournalFeed {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final String id;
  private final Journal journal;
  private final List<URI> uris;
  private final long size;
  private final Instant start;
  private int appended;

  /**
   * A feed for the download with the given log id into {@code journal} (or null for none), for
   * replicas {@code uris}, a file of {@code size} bytes and a transfer that started at {@code
   * start}.
   */
  JournalFeed(String id, Journal journal, List<URI> uris, long size, Instant start) {
    this.id = id;
    this.journal = journal;
    this.uris = uris;
    this.size = size;
    this.start = start;
  }

  /** Appends the events not appended yet; {@code events} are all of the download's so far. */
  void append(List<BlockEvent> events) {
    if (journal != null && events.size() > appended) {
      try {
        journal.append(events.subList(appended, events.size()), uris, size, start);
      } catch (IOException e) {
        LOG.warn("[{}] cannot append to the journal {}: {}", id, journal.path(), e.toString());
      }
    }
    appended = events.size();
  }
}
