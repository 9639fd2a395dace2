package org.braid.broker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;

/**
 * This client's history as samples: one per download and endpoint, what that replica delivered over
 * the download ({@link JournalLine#aggregate}: a version 2 line as it is, the version 1 request
 * lines of 0.x journals merged, their busy time the union of their spans). A sample is the
 * aggregate's received bytes over its busy time. One busy less than {@link #MIN_SAMPLE_MILLIS}
 * measures a burst out of buffers (a tail request that "took" 0.000 s), and one that moved fewer
 * than {@link #MIN_SAMPLE_BYTES} the start-up of a connection, not the replica: they are left out.
 * The byte floor is low on purpose: a replica that slowed down delivers little in a co-allocated
 * download, and its sample is what shows the slowdown. Records without a journal line (from a store
 * written before it kept them) are ignored.
 *
 * <p>Not thread-safe: the {@link ClientHistory} that owns it guards it. The lists it hands out
 * never change afterwards.
 */
final class HistoryIndex {

  /** The fewest bytes a sample moved. */
  static final long MIN_SAMPLE_BYTES = JournalLine.MIN_SAMPLE_BYTES;

  /** The shortest busy time of a sample. */
  static final long MIN_SAMPLE_MILLIS = 200;

  private record Group(String download, String endpoint) {}

  private final Map<Group, List<JournalLine>> lines = new HashMap<>();
  private final Map<String, Map<String, TransferRecord>> samples = new HashMap<>();
  private Map<String, List<TransferRecord>> byEndpoint = Map.of();
  private List<TransferRecord> all = List.of();

  /** Samples by endpoint key, each list in start order. */
  Map<String, List<TransferRecord>> byEndpoint() {
    return byEndpoint;
  }

  /** Every sample, oldest end first. */
  List<TransferRecord> all() {
    return all;
  }

  /** Adds stored journal records; false when none changed a sample. */
  boolean add(List<TransferRecord> records) {
    Set<Group> touched = new HashSet<>();
    for (TransferRecord r : records) {
      JournalLine l = r.journal();
      if (l == null || r.operation() != TransferRecord.Operation.READ) {
        continue;
      }
      Group g = new Group(l.download(), ClientHistory.endpointKey(r));
      lines.computeIfAbsent(g, k -> new ArrayList<>()).add(l);
      touched.add(g);
    }
    if (touched.isEmpty()) {
      return false;
    }
    Set<String> endpoints = new HashSet<>();
    for (Group g : touched) {
      JournalLine a = JournalLine.aggregate(lines.get(g));
      Map<String, TransferRecord> m = samples.computeIfAbsent(g.endpoint(), k -> new HashMap<>());
      if (isSample(a)) {
        m.put(g.download(), record(a));
      } else {
        m.remove(g.download());
      }
      endpoints.add(g.endpoint());
    }
    Map<String, List<TransferRecord>> next = new HashMap<>(byEndpoint);
    for (String e : endpoints) {
      List<TransferRecord> l = new ArrayList<>(samples.get(e).values());
      l.sort(Comparator.comparing(TransferRecord::start).thenComparing(TransferRecord::end));
      if (l.isEmpty()) {
        next.remove(e);
      } else {
        next.put(e, Collections.unmodifiableList(l));
      }
    }
    List<TransferRecord> a = new ArrayList<>();
    next.values().forEach(a::addAll);
    a.sort(Comparator.comparing(TransferRecord::end).thenComparing(TransferRecord::start));
    byEndpoint = Collections.unmodifiableMap(next);
    all = Collections.unmodifiableList(a);
    return true;
  }

  /** Whether a replica's delivery in one download is long and large enough to measure it. */
  static boolean isSample(JournalLine a) {
    return a.received() >= MIN_SAMPLE_BYTES && a.busyMillis() >= MIN_SAMPLE_MILLIS;
  }

  /** The sample as a transfer: the received bytes, over the busy time. */
  private static TransferRecord record(JournalLine a) {
    return new TransferRecord(
        a.server(),
        a.peer(),
        a.path(),
        a.received(),
        a.start(),
        a.end(),
        a.streams(),
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        TransferRecord.Operation.READ,
        "/",
        a.result(),
        a.protocol(),
        a);
  }
}
