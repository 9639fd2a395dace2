package org.braid.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.LogFiles;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.predictors.Forecast;
import org.braid.predictors.Forecaster;
import org.braid.predictors.Series;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This client's own transfer history: the downloader's journal, read with the infoprovider's
 * journal parser, grouped by server ({@code host:port}, as the journal writes it). Re-read when the
 * file changes. Thread-safe.
 */
final class ClientHistory {

  private static final Logger LOG = LoggerFactory.getLogger(ClientHistory.class);
  /** The most recent flows per server used for a forecast. */
  static final int MAX_HISTORY = 200;

  private final Path journal;
  private final Forecaster forecaster;
  private Object stamp;
  private Map<String, List<TransferRecord>> byServer = Map.of();
  private List<TransferRecord> all = List.of();

  ClientHistory(Path journal, Forecaster forecaster) {
    this.journal = journal;
    this.forecaster = forecaster;
  }

  /** The journal's successful reads by server, re-read if the file changed. */
  synchronized Map<String, List<TransferRecord>> flows() {
    if (journal == null) {
      return Map.of();
    }
    try {
      BasicFileAttributes a = Files.readAttributes(journal, BasicFileAttributes.class);
      Object s = a.lastModifiedTime() + "/" + a.size();
      if (s.equals(stamp)) {
        return byServer;
      }
      List<TransferRecord> records = new ArrayList<>();
      ParseReport report = new ParseReport();
      LogFiles.read(journal, LogFormat.BRAID, records::add, report);
      if (report.rejected() > 0) {
        LOG.warn("journal {}: {} malformed lines skipped", journal, report.rejected());
      }
      Map<String, List<TransferRecord>> m = new HashMap<>();
      for (TransferRecord r : records) {
        if (r.succeeded() && r.operation() == TransferRecord.Operation.READ && r.size() > 0) {
          m.computeIfAbsent(r.server().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(r);
        }
      }
      m.values().forEach(l -> l.sort(Comparator.comparing(TransferRecord::start)));
      byServer = m;
      all = records.stream().filter(TransferRecord::succeeded).toList();
      stamp = s;
    } catch (NoSuchFileException e) {
      byServer = Map.of();
      all = List.of();
      stamp = null;
    } catch (IOException | RuntimeException e) {
      LOG.warn("journal {} not read: {}", journal, e.toString());
      byServer = Map.of();
      all = List.of();
      stamp = null;
    }
    return byServer;
  }

  /** Every successful flow of the journal (for learning shared bottlenecks). */
  synchronized List<TransferRecord> all() {
    flows();
    return all;
  }

  /** The journal's server key of a replica: host:port with the scheme's default port. */
  static String serverKey(Replica r) {
    int port = r.port() < 0 ? 0 : r.port();
    return r.host().toLowerCase(Locale.ROOT) + ":" + port;
  }

  /** The journal as read now: its version stamp (null without a journal) and flows by server. */
  record View(Object stamp, Map<String, List<TransferRecord>> byServer) {}

  /** The current view, re-reading the journal if it changed (one file-status call). */
  synchronized View view() {
    Map<String, List<TransferRecord>> m = flows();
    return new View(stamp, m);
  }

  /** The forecast from this client's history with the replica's server, or null with none. */
  Forecast forecast(View v, Replica r, long size, Instant at) {
    List<TransferRecord> l = v.byServer().get(serverKey(r));
    if (l == null || l.isEmpty()) {
      return null;
    }
    Series.Builder b = Series.builder(serverKey(r));
    for (TransferRecord t : l.subList(Math.max(0, l.size() - MAX_HISTORY), l.size())) {
      b.add(t.start(), t.bandwidth(), t.size());
    }
    Forecast f = forecaster.forecast(b.build(), size < 0 ? 0 : size, at);
    return f.isAvailable() ? f : null;
  }

  /** How many flows the journal holds for the replica's server. */
  static int count(View v, Replica r) {
    List<TransferRecord> l = v.byServer().get(serverKey(r));
    return l == null ? 0 : l.size();
  }
}
