package org.braid.infoprovider.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.FilePosition;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.TailSink.KeyedRecord;
import org.braid.infoprovider.logs.TailSink.KeyedRejection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {

  @TempDir Path dir;

  private Store open(Instant now) throws StoreException {
    return Store.open(dir.resolve("p.db"), InstantSource.fixed(now), Store.DEFAULT_RETENTION);
  }

  private static TransferRecord record(int i) throws Exception {
    return LogFormat.GRIDFTP.parser().parse(TestLines.gridftp(i));
  }

  @Test
  void open_newDatabase_isWalWithSchemaVersion() throws Exception {
    try (Store s = open(TestLines.NOW)) {
      assertEquals("wal", s.journalMode());
      assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
    }
  }

  @Test
  void open_newerSchema_isRefusedWithReason() throws Exception {
    open(TestLines.NOW).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("p.db"));
        Statement st = c.createStatement()) {
      st.execute("INSERT INTO schema_version (version) VALUES (99)");
    }
    StoreException e = assertThrows(StoreException.class, () -> open(TestLines.NOW));
    assertTrue(
        e.getMessage().contains("schema version 99, newer than this provider's 2"), e.getMessage());
  }

  /** A version 1 database (0.x) is upgraded in place: its rows stay, with no journal line. */
  @Test
  void open_version1Database_isUpgradedAndKeepsJournalLines() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("p.db"));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      st.execute("INSERT INTO schema_version (version) VALUES (1)");
      st.execute(
          "CREATE TABLE transfers (key TEXT PRIMARY KEY, source TEXT NOT NULL, server TEXT NOT"
              + " NULL, peer TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, start_us"
              + " INTEGER NOT NULL, end_us INTEGER NOT NULL, streams INTEGER NOT NULL, tcp_buffer"
              + " INTEGER NOT NULL, block_size INTEGER NOT NULL, operation TEXT NOT NULL, volume"
              + " TEXT NOT NULL, result TEXT NOT NULL, protocol TEXT NOT NULL)");
      long end = TestLines.NOW.toEpochMilli() * 1000;
      st.execute(
          "INSERT INTO transfers VALUES ('old', '/j', 'm:80', 'c', '/f', 1000, "
              + (end - 1_000_000)
              + ", "
              + end
              + ", 1, -1, -1, 'read', '/', 'ok', 'http')");
    }
    String line =
        "{\"v\":2,\"download\":\"d1\",\"url\":\"http://m:80/f\",\"server\":\"m:80\","
            + "\"peer\":\"c\",\"path\":\"/f\",\"fileSize\":4000,\"bytes\":4000,"
            + "\"received\":4000,\"start\":\"2026-11-22T04:00:00.000Z\","
            + "\"end\":\"2026-11-22T04:00:02.000Z\",\"busyMs\":1000,\"requests\":2,"
            + "\"failures\":0,\"connections\":1,\"sharedMs\":0,\"replicas\":1,\"flows\":1,"
            + "\"streams\":1,\"protocol\":\"http\",\"result\":\"ok\"}";
    TransferRecord fresh = LogFormat.BRAID.parser().parse(line);
    try (Store s =
        Store.open(dir.resolve("p.db"), InstantSource.fixed(fresh.end()), Duration.ofDays(3650))) {
      assertEquals(2, s.schemaVersion());
      s.commit(
          new FilePosition("/j", "fp", "", 10, 1, false),
          List.of(new KeyedRecord("new", fresh)),
          List.of());
      List<TransferRecord> read = new ArrayList<>();
      s.forEachTransfer("/j", read::add);
      assertEquals(2, read.size());
      TransferRecord old = read.get(0).size() == 1000 ? read.get(0) : read.get(1);
      TransferRecord stored = old == read.get(0) ? read.get(1) : read.get(0);
      assertNull(old.journal());
      assertEquals(fresh, stored);
      assertEquals(4000.0, stored.bandwidth(), 1e-9); // received over the busy second
      assertEquals(1000.0, old.bandwidth(), 1e-9);
      assertEquals(2, s.forget("/j"));
      assertNull(s.position("/j", "fp"));
    }
  }

  @Test
  void commit_sameKeyTwice_storesOnce() throws Exception {
    try (Store s = open(TestLines.NOW)) {
      FilePosition p = new FilePosition("/l", "fp", "", 10, 1, false);
      assertEquals(
          List.of(record(1)),
          s.commit(
              p,
              List.of(new KeyedRecord("k1", record(1))),
              List.of(new KeyedRejection("r1", "bad"), new KeyedRejection("r2", "bad"))));
      assertEquals(
          List.of(record(2)),
          s.commit(
              p,
              List.of(new KeyedRecord("k1", record(1)), new KeyedRecord("k2", record(2))),
              List.of(new KeyedRejection("r2", "bad"), new KeyedRejection("r3", "bad"))));
      assertEquals(2, s.transferCount());
      assertEquals(Map.of("/l", Map.of("bad", 3L)), s.rejections());
      assertEquals(p, s.position("/l", "fp"));
    }
  }

  @Test
  void transfersAndSeries_surviveRestart() throws Exception {
    TransferRecord r = record(3);
    try (Store s = open(TestLines.NOW)) {
      s.commit(
          new FilePosition("/l", "fp", "", 1, 1, false),
          List.of(new KeyedRecord("k", r)),
          List.of());
      s.addSample("network/10.0.0.1/connect", new Point(TestLines.NOW, 0.25));
    }
    try (Store s = open(TestLines.NOW)) {
      List<TransferRecord> all = new ArrayList<>();
      s.forEachTransfer(all::add);
      assertEquals(List.of(r), all);
      assertEquals(List.of("network/10.0.0.1/connect"), s.seriesNames());
      assertEquals(List.of(new Point(TestLines.NOW, 0.25)), s.series("network/10.0.0.1/connect"));
    }
  }

  @Test
  void retention_oldRecordsAreNotStoredAndArePurged() throws Exception {
    try (Store s = open(TestLines.NOW)) {
      s.commit(
          new FilePosition("/l", "fp", "", 1, 1, false),
          List.of(new KeyedRecord("k", record(3))),
          List.of());
      s.addSample("disk/sda/util", new Point(TestLines.NOW, 5));
    }
    Instant later = TestLines.NOW.plus(Duration.ofDays(31));
    try (Store s = open(later)) {
      List<TransferRecord> all = new ArrayList<>();
      s.forEachTransfer(all::add);
      assertEquals(List.of(), all);
      assertEquals(Map.of("transfers", 1, "samples", 1, "rejectedLines", 0), s.purge());
      s.commit(
          new FilePosition("/l", "fp", "", 2, 2, false),
          List.of(new KeyedRecord("k9", record(9))),
          List.of());
      assertEquals(0, s.transferCount());
    }
  }

  @Test
  void open_badArguments_namedInMessage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(dir.resolve("x.db"), InstantSource.system(), Duration.ZERO));
    assertEquals("retention must be positive: PT0S", e.getMessage());
  }
}
