package org.braid.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.LogFiles;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.LogTailer;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.store.Store;
import org.braid.predictors.Forecaster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This client's own transfer history: the downloader's journal, ingested into an infoprovider
 * {@link Store} kept beside it (by default {@value #STORE_NAME} in the journal's directory) and
 * grouped by endpoint: the flow's protocol and server ({@code scheme://host:port}, from the journal
 * line's {@code protocol} and {@code server}), so that a replica is forecast from this client's
 * flows with its own door only, never with another port or protocol of the same host.
 *
 * <p>Ingestion is the provider's: a {@link LogTailer} remembers, in the store, how far it read each
 * file (known by the hash of its first line), so only lines appended since the last look are
 * parsed; a rotated journal ({@code journal.jsonl.1}, ...) is read on from where it stopped and the
 * new live file from its start; a journal rewritten shorter is read again, its lines' keys keeping
 * each flow stored once. Malformed lines are skipped and logged with their line number and reason.
 * The store keeps flows for {@link #RETENTION} (also after the journal is rotated away), each with
 * its journal line; a store written before it kept them is emptied of this journal's flows once,
 * and the journal files present are read again. The per-endpoint samples ({@link HistoryIndex}: one
 * per download and replica, version 1 request lines merged) are made from the store's flows of this
 * journal when the store is opened, and extended with each newly stored flow; forecasts come from
 * {@link HistoryForecaster}.
 *
 * <p>The journal is looked at (one file-status call) on each {@link #view()}; it is read only when
 * its size, time or identity changed. A store that cannot be opened (not a database, a directory,
 * no permission) is not used, with one warning: the whole journal is then read again whenever it
 * changes, as before the store existed, and flows of rotated-away journals are not remembered.
 * Thread-safe.
 */
final class ClientHistory implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClientHistory.class);

  /** The most recent samples per endpoint used for a forecast. */
  static final int MAX_HISTORY = HistoryForecaster.MAX_HISTORY;

  /** The store's default file name, in the journal's directory. */
  static final String STORE_NAME = "history.db";

  /** How long flows stay in the store. */
  static final Duration RETENTION = Duration.ofDays(365);

  private final Path journal;
  private final Path storeFile;
  private final HistoryForecaster forecaster;
  private final InstantSource clock;
  private final ParseReport report = new ParseReport();
  private Store store;
  private LogTailer tailer;
  private boolean disabled;

  /** The store could not be opened: the journal is read whole instead. */
  private boolean journalOnly;

  private boolean pollFailing;

  /** The live journal's status when it was last read. */
  private Object polled;

  /** Bumped whenever flows are added: the version the broker's caches compare. */
  private long version;

  private HistoryIndex index = new HistoryIndex();

  /** Flows the tailer stored for the first time during the current poll. */
  private final List<TransferRecord> fresh = new ArrayList<>();

  /**
   * A history of {@code journal} (null: none) kept in {@code storeFile} (null: {@value #STORE_NAME}
   * beside the journal), forecast with {@code forecaster} for a client of {@code clientCapacity}
   * bytes per second (infinite: unknown).
   */
  ClientHistory(
      Path journal,
      Path storeFile,
      Forecaster forecaster,
      InstantSource clock,
      double clientCapacity) {
    this.journal = journal == null ? null : journal.toAbsolutePath().normalize();
    this.storeFile =
        this.journal == null
            ? null
            : storeFile != null ? storeFile : this.journal.resolveSibling(STORE_NAME);
    this.forecaster = new HistoryForecaster(forecaster, clientCapacity);
    this.clock = clock;
  }

  /**
   * The journal as read now: its version stamp (null without history), its samples (what a replica
   * delivered in one download, {@link HistoryIndex}) by endpoint key ({@link #endpointKey}) in
   * start order, and all of them in end order.
   */
  record View(
      Object stamp, Map<String, List<TransferRecord>> byEndpoint, List<TransferRecord> all) {}

  private static final View NONE = new View(null, Map.of(), List.of());

  /** The current view, reading what was appended to the journal since the last look. */
  synchronized View view() {
    if (!open()) {
      return journalOnly ? readJournal() : NONE;
    }
    Object now = status();
    if (!now.equals(polled)) {
      if (poll()) {
        polled = now;
      }
    }
    return new View(version, index.byEndpoint(), index.all());
  }

  /** Every sample of the journal, oldest end first (for learning shared bottlenecks). */
  synchronized List<TransferRecord> all() {
    return view().all();
  }

  /** What ingestion has read since the store was opened: lines, flows, rejections with reasons. */
  synchronized ParseReport report() {
    ParseReport copy = new ParseReport();
    copy.merge(report);
    return copy;
  }

  /**
   * Opens the store once the journal (or an earlier store) exists; false when there is no history.
   */
  private boolean open() {
    if (journal == null || disabled) {
      return false;
    }
    if (store != null) {
      return true;
    }
    if (!Files.exists(journal) && !Files.exists(storeFile)) {
      return false; // nothing to read yet: do not create files in the user's data directory
    }
    try {
      Store s = Store.open(storeFile, clock, RETENTION);
      try {
        s.purge();
        tailer = new LogTailer(journal, LogFormat.BRAID, s, null, this::stored);
        List<TransferRecord> loaded = new ArrayList<>();
        s.forEachTransfer(tailer.path().toString(), loaded::add);
        if (loaded.stream().anyMatch(r -> r.journal() == null)) {
          // stored by a version that kept no journal lines: read the journal files again
          int n = s.forget(tailer.path().toString());
          LOG.info(
              "history {}: {} flows stored without their journal lines, reading {} again",
              storeFile,
              n,
              journal);
          loaded.clear();
        }
        store = s;
        index(loaded);
        LOG.debug(
            "history {}: {} samples of {} in the store", storeFile, index.all().size(), journal);
      } catch (IOException | RuntimeException e) {
        s.close();
        throw e;
      }
      return true;
    } catch (IOException | RuntimeException e) {
      disabled = true;
      journalOnly = true;
      LOG.warn(
          "history store {} cannot be used ({}); reading the journal {} directly, without the flows of"
              + " earlier, rotated journals (a damaged store: move or delete it to rebuild it)",
          storeFile,
          oneLine(e),
          journal);
      return false;
    }
  }

  /** Without a store: the whole journal, read again when it changed. */
  private View readJournal() {
    Object now = status();
    if (!now.equals(polled)) {
      List<TransferRecord> records = new ArrayList<>();
      ParseReport delta = new ParseReport();
      try {
        if (Files.exists(journal)) {
          LogFiles.read(journal, LogFormat.BRAID, records::add, delta);
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("journal {} not read: {}", journal, oneLine(e));
        records.clear();
      }
      if (delta.rejected() > 0) {
        LOG.warn("journal {}: {} malformed lines skipped", journal, delta.rejected());
      }
      index = new HistoryIndex();
      index(records);
      version++;
      polled = now;
    }
    return new View(version, index.byEndpoint(), index.all());
  }

  private void stored(TransferRecord r) {
    fresh.add(r);
  }

  /**
   * Reads what is new in the journal into the store; false if the store failed (retried next time).
   */
  private boolean poll() {
    fresh.clear();
    ParseReport delta;
    try {
      delta = tailer.poll();
    } catch (IOException | RuntimeException e) {
      if (!pollFailing) {
        LOG.warn(
            "history store {}: cannot store new flows of {} ({}); using the flows stored so far",
            storeFile,
            journal,
            oneLine(e));
      }
      pollFailing = true;
      index(fresh);
      return false;
    }
    pollFailing = false;
    report.merge(delta);
    if (delta.rejected() > 0) {
      LOG.warn(
          "journal {}: {} malformed lines skipped {}",
          journal,
          delta.rejected(),
          delta.rejectedByReason());
      for (ParseReport.Rejection x : delta.examples()) {
        LOG.warn("journal {}: skipped {}", journal, x);
      }
    }
    index(fresh);
    return true;
  }

  /** Adds flows to the index; the views handed out earlier stay as they were. */
  private void index(List<TransferRecord> flows) {
    if (index.add(flows)) {
      version++;
    }
  }

  /** The live journal's size, time and identity (file key), or "missing". */
  private Object status() {
    try {
      BasicFileAttributes a = Files.readAttributes(journal, BasicFileAttributes.class);
      return a.lastModifiedTime() + "/" + a.size() + "/" + a.fileKey();
    } catch (NoSuchFileException e) {
      return "missing";
    } catch (IOException e) {
      return "unreadable: " + e;
    }
  }

  private static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return m.replace('\n', ' ');
  }

  /** The endpoint key of a flow: its protocol and server, {@code scheme://host:port}. */
  static String endpointKey(TransferRecord r) {
    return (r.protocol() + "://" + r.server()).toLowerCase(Locale.ROOT);
  }

  /**
   * The endpoint key of a replica, as the journal writes its flows: scheme, host and port (the
   * scheme's default port, 0 for none).
   */
  static String endpointKey(Replica r) {
    return r.uri().getScheme().toLowerCase(Locale.ROOT) + "://" + Planner.serverKey(r);
  }

  /**
   * The forecast from this client's history with the replica's endpoint ({@link
   * HistoryForecaster}), or null with none.
   */
  HistoryForecaster.Result forecast(View v, Replica r, long size, Instant at) {
    String key = endpointKey(r);
    List<TransferRecord> l = v.byEndpoint().get(key);
    if (l == null || l.isEmpty()) {
      return null;
    }
    return forecaster.forecast(key, l, v.all(), size, at);
  }

  /** How many samples (downloads) the journal holds with the replica's endpoint. */
  static int count(View v, Replica r) {
    List<TransferRecord> l = v.byEndpoint().get(endpointKey(r));
    return l == null ? 0 : l.size();
  }

  /** Closes the store. */
  @Override
  public synchronized void close() {
    if (store != null) {
      try {
        store.close();
      } catch (IOException e) {
        LOG.debug("history store {}: {}", storeFile, e.toString());
      }
      store = null;
    }
    disabled = true;
    journalOnly = false;
  }
}
