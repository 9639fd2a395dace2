package org.braid.infoprovider.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.logs.TailSink.KeyedRecord;

/**
 * The {@code transfers} table: one row per transfer, keyed by a hash of its log line, so that a
 * line read twice is stored once. Callers hold the store's lock and commit.
 */
final class TransferTable {

  private TransferTable() {}

  /**
   * Inserts the records that end at or after {@code cutoff} (microseconds), ignoring keys already
   * stored.
   *
   * @return the records actually inserted
   */
  static List<TransferRecord> insert(
      Connection db, String source, List<KeyedRecord> records, long cutoff) throws SQLException {
    List<TransferRecord> candidates = new ArrayList<>();
    List<TransferRecord> stored = new ArrayList<>();
    try (PreparedStatement ins =
        db.prepareStatement(
            "INSERT OR IGNORE INTO transfers (key, source, server, peer, path, size, start_us,"
                + " end_us, streams, tcp_buffer, block_size, operation, volume, result, protocol,"
                + " journal) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
      for (KeyedRecord kr : records) {
        TransferRecord r = kr.record();
        if (Micros.of(r.end()) < cutoff) {
          continue;
        }
        ins.setString(1, kr.key());
        ins.setString(2, source);
        ins.setString(3, r.server());
        ins.setString(4, r.peer());
        ins.setString(5, r.path());
        ins.setLong(6, r.size());
        ins.setLong(7, Micros.of(r.start()));
        ins.setLong(8, Micros.of(r.end()));
        ins.setInt(9, r.streams());
        ins.setLong(10, r.tcpBuffer());
        ins.setLong(11, r.blockSize());
        ins.setString(12, r.operation().label());
        ins.setString(13, r.volume());
        ins.setString(14, r.resultCode());
        ins.setString(15, r.protocol());
        ins.setString(16, r.journal() == null ? null : r.journal().toLine());
        ins.addBatch();
        candidates.add(r);
      }
      int[] counts = ins.executeBatch();
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] > 0) {
          stored.add(candidates.get(i));
        }
      }
    }
    return stored;
  }

  /**
   * Hands the transfers ending at or after {@code cutoff}, from {@code source} (null: every log),
   * to {@code sink}, oldest end first.
   */
  static void read(Connection db, String source, long cutoff, Consumer<TransferRecord> sink)
      throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT server, peer, path, size, start_us, end_us, streams, tcp_buffer, block_size,"
                + " operation, volume, result, protocol, journal FROM transfers WHERE end_us >= ?"
                + (source == null ? "" : " AND source = ?")
                + " ORDER BY end_us, key")) {
      ps.setLong(1, cutoff);
      if (source != null) {
        ps.setString(2, source);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          sink.accept(
              new TransferRecord(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getLong(4),
                  Micros.toInstant(rs.getLong(5)),
                  Micros.toInstant(rs.getLong(6)),
                  rs.getInt(7),
                  rs.getLong(8),
                  rs.getLong(9),
                  Operation.parse(rs.getString(10)),
                  rs.getString(11),
                  rs.getString(12),
                  rs.getString(13),
                  journal(rs.getString(14))));
        }
      }
    }
  }

  /** The stored journal line, or null; a line that no longer parses is an error. */
  private static JournalLine journal(String line) throws SQLException {
    if (line == null) {
      return null;
    }
    try {
      return JournalLine.parse(line);
    } catch (JournalLine.MalformedException e) {
      throw new SQLException("stored journal line does not parse: " + e.getMessage(), e);
    }
  }

  /**
   * Deletes the transfers and log positions of {@code source}: its logs are read again from their
   * start.
   *
   * @return the transfers deleted
   */
  static int forget(Connection db, String source) throws SQLException {
    try (PreparedStatement t = db.prepareStatement("DELETE FROM transfers WHERE source = ?");
        PreparedStatement p = db.prepareStatement("DELETE FROM positions WHERE source = ?")) {
      t.setString(1, source);
      p.setString(1, source);
      int n = t.executeUpdate();
      p.executeUpdate();
      return n;
    }
  }

  /** The number of rows. */
  static long count(Connection db) throws SQLException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM transfers")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
