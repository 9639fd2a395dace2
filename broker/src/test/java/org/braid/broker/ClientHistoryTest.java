package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import org.braid.broker.catalog.Replica;
import org.braid.predictors.Forecaster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal ingested incrementally into the infoprovider store beside it. */
class ClientHistoryTest {

  static final Instant T0 = BrokerTest.T0;

  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T0);
  final FakeServers fake = new FakeServers();

  @AfterEach
  void close() throws Exception {
    fake.close();
  }

  ClientHistory history(Path journal) {
    return new ClientHistory(
        journal, null, Forecaster.builder().build(), clock, Double.POSITIVE_INFINITY);
  }

  /** Appends {@code n} flows with {@code server}, starting at flow number {@code from}. */
  static void append(Path journal, String server, int from, int n) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < from + n; i++) {
      sb.append(BrokerTest.flowLine(server, T0.minusSeconds(36_000 - i * 60L), 4, 2e6 + i));
    }
    Files.writeString(journal, sb, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  static int flows(ClientHistory h, String server) {
    List<?> l = h.view().byEndpoint().get("http://" + server);
    return l == null ? 0 : l.size();
  }

  /** Runs {@code body} with System.err (where slf4j-simple logs) captured. */
  static <T> T capturingLog(ByteArrayOutputStream log, Callable<T> body) throws Exception {
    PrintStream saved = System.err;
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try {
      return body.call();
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void view_appendedLines_onlyTheNewOnesAreParsed() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 20);
    try (ClientHistory h = history(j)) {
      assertEquals(20, flows(h, "a.example:80"));
      assertEquals(20, h.report().lines());
      assertTrue(
          Files.isRegularFile(dir.resolve("history.db")), "the store sits beside the journal");
      // Unchanged journal: not read again, the same view.
      ClientHistory.View v = h.view();
      assertSame(v.byEndpoint(), h.view().byEndpoint());
      assertEquals(20, h.report().lines());
      append(j, "a.example:80", 20, 3);
      append(j, "b.example:80", 23, 2);
      assertEquals(23, flows(h, "a.example:80"));
      assertEquals(2, flows(h, "b.example:80"));
      assertEquals(25, h.report().lines(), "5 new lines parsed, not 25 again");
      assertTrue(!v.stamp().equals(h.view().stamp()), "a new version for the broker's caches");
      assertEquals(
          20,
          v.byEndpoint().get("http://a.example:80").size(),
          "a view handed out earlier does not change");
    }
    // A new broker: the flows come from the store; nothing is parsed again.
    try (ClientHistory h = history(j)) {
      assertEquals(23, flows(h, "a.example:80"));
      assertEquals(0, h.report().lines());
      append(j, "a.example:80", 25, 1);
      assertEquals(24, flows(h, "a.example:80"));
      assertEquals(1, h.report().lines());
      // Series in start order, as the forecaster expects.
      List<org.braid.infoprovider.TransferRecord> l =
          h.view().byEndpoint().get("http://a.example:80");
      for (int i = 1; i < l.size(); i++) {
        assertTrue(!l.get(i).start().isBefore(l.get(i - 1).start()));
      }
    }
  }

  @Test
  void view_rotatedJournal_readOnAndNewFileFromItsStart() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 5);
    try (ClientHistory h = history(j)) {
      assertEquals(5, flows(h, "a.example:80"));
      // logrotate renames the journal; the writer still appends 2 lines to the old file, then a
      // new journal starts.
      Files.move(j, dir.resolve("journal.jsonl.1"));
      append(dir.resolve("journal.jsonl.1"), "a.example:80", 5, 2);
      assertEquals(7, flows(h, "a.example:80"));
      append(j, "a.example:80", 7, 4);
      assertEquals(11, flows(h, "a.example:80"));
      assertEquals(11, h.report().lines(), "each line parsed once");
      // The rotated file is deleted: its flows stay in the store.
      Files.delete(dir.resolve("journal.jsonl.1"));
      append(j, "a.example:80", 11, 1);
      assertEquals(12, flows(h, "a.example:80"));
    }
  }

  @Test
  void view_truncatedJournal_isReadAgain_withoutCountingAFlowTwice() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 6);
    try (ClientHistory h = history(j)) {
      assertEquals(6, flows(h, "a.example:80"));
      // Rewritten in place, shorter, same first line (copytruncate and a restart): read again.
      List<String> lines = Files.readAllLines(j);
      Files.write(j, lines.subList(0, 2));
      append(j, "a.example:80", 6, 1);
      assertEquals(7, flows(h, "a.example:80"));
      // Emptied and started afresh (another first line): the new lines are read from the start.
      Files.write(j, new byte[0]);
      append(j, "a.example:80", 7, 3);
      assertEquals(10, flows(h, "a.example:80"));
    }
  }

  @Test
  void view_corruptLines_skippedWithTheirReasonLogged() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 1);
    Files.writeString(j, "{not json\n", StandardOpenOption.APPEND);
    Files.writeString(
        j,
        BrokerTest.flowLine("a.example:80", T0, 1, 1e6)
            .replace("\"v\":1", "\"v\":1,\"colour\":\"red\""),
        StandardOpenOption.APPEND);
    append(j, "a.example:80", 1, 1);
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (ClientHistory h = history(j)) {
      int n = capturingLog(log, () -> flows(h, "a.example:80"));
      assertEquals(2, n);
      assertEquals(2, h.report().rejected());
      assertEquals(
          java.util.Set.of("unknown key", "truncated line"),
          h.report().rejectedByReason().keySet(),
          h.report().rejectedByReason().toString());
    }
    String out = log.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("journal " + j + ": 2 malformed lines skipped"), out);
    assertTrue(out.contains(j + ":2: truncated line"), out);
    assertTrue(out.contains(j + ":3: unknown key: colour"), out);
  }

  @Test
  void view_storeNotADatabase_journalReadDirectlyWithOneWarning() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 20);
    Files.writeString(
        dir.resolve("history.db"),
        "this is not an SQLite database, it is a text file\n".repeat(200));
    URI pa = fake.answering("[" + BrokerTest.ad(9e6, 9e6, 5) + "]");
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    RankedReplica r =
        capturingLog(
            log,
            () -> {
              try (Broker b =
                  Broker.builder().clock(clock).conventionalProviders(false).journal(j).build()) {
                b.select(
                    Request.builder(List.of(BrokerTest.rep("http://a.example/f", pa)))
                        .size(8_000_000)
                        .build());
                return b.select(
                        Request.builder(List.of(BrokerTest.rep("http://a.example/f", pa)))
                            .size(8_000_000)
                            .build())
                    .get(0);
              }
            });
    // the journal is read directly: its 20 flows of about 2 MB/s make the forecast
    assertEquals("history", r.forecastSource(), "the journal read without the store");
    assertEquals(2e6, r.predictedBandwidth(), 1e5);
    String out = log.toString(StandardCharsets.UTF_8);
    String warning = "history store " + dir.resolve("history.db") + " cannot be used";
    assertTrue(
        out.contains(warning) && out.contains("reading the journal " + j + " directly"), out);
    assertEquals(
        out.indexOf(warning), out.lastIndexOf(warning), "warned once, not on every select");
  }

  @Test
  void view_storeIsADirectory_journalReadDirectly_andAgainWhenItGrows() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 3);
    Files.createDirectories(dir.resolve("history.db"));
    try (ClientHistory h = history(j)) {
      ClientHistory.View v = capturingLog(new ByteArrayOutputStream(), h::view);
      assertNotNull(v.stamp());
      assertEquals(3, v.byEndpoint().get("http://a.example:80").size());
      assertEquals(v.stamp(), h.view().stamp(), "unchanged journal: the same view");
      append(j, "a.example:80", 3, 2);
      ClientHistory.View w = h.view();
      assertNotEquals(v.stamp(), w.stamp());
      assertEquals(5, w.byEndpoint().get("http://a.example:80").size());
    }
  }

  @Test
  void view_noJournalYet_createsNoStore_thenPicksItUp() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    try (ClientHistory h = history(j)) {
      assertNull(h.view().stamp());
      assertTrue(!Files.exists(dir.resolve("history.db")));
      append(j, "a.example:80", 0, 2);
      assertNotNull(h.view().stamp());
      assertEquals(2, flows(h, "a.example:80"));
    }
  }

  @Test
  void view_twoJournalsInOneDirectory_shareTheStoreButNotTheirFlows() throws Exception {
    Path j1 = dir.resolve("one.jsonl");
    Path j2 = dir.resolve("two.jsonl");
    append(j1, "a.example:80", 0, 2);
    append(j2, "b.example:80", 0, 3);
    try (ClientHistory h1 = history(j1)) {
      assertEquals(2, flows(h1, "a.example:80"));
    }
    try (ClientHistory h2 = history(j2)) {
      assertEquals(3, flows(h2, "b.example:80"));
      assertEquals(0, flows(h2, "a.example:80"));
    }
  }

  @Test
  void forecast_fromTheStoredSeries() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    append(j, "a.example:80", 0, 20);
    try (ClientHistory h = history(j)) {
      ClientHistory.View v = h.view();
      Replica a = Replica.of("http://a.example/f");
      assertEquals(20, ClientHistory.count(v, a));
      assertEquals(2e6, h.forecast(v, a, 8_000_000, T0).forecast().value(), 2e6 * 0.01);
      assertNull(h.forecast(v, Replica.of("http://z.example/f"), 8_000_000, T0));
    }
  }
}
