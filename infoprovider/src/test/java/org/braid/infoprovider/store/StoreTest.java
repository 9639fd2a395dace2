package org.braid.infoprovider.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        e.getMessage().contains("schema version 99, newer than this provider's 1"), e.getMessage());
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
