package org.braid.infoprovider.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.logs.FilePosition;
import org.braid.infoprovider.logs.TailSink.KeyedRejection;

/**
 * How far each log has been read: the {@code positions} table (one row per log file, known by its
 * fingerprint) and the {@code rejected_lines} table (each rejected line once, by key). Callers hold
 * the store's lock and commit.
 */
final class LogProgressTables {

  private LogProgressTables() {}

  /** The stored position of one file, or null. */
  static FilePosition position(Connection db, String source, String fingerprint)
      throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT file_key, offset, lines, complete FROM positions"
                + " WHERE source = ? AND fingerprint = ?")) {
      ps.setString(1, source);
      ps.setString(2, fingerprint);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new FilePosition(
            source, fingerprint, rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getInt(4) != 0);
      }
    }
  }

  /** Every stored position, by log and then by last update. */
  static List<FilePosition> positions(Connection db) throws SQLException {
    List<FilePosition> out = new ArrayList<>();
    try (Statement st = db.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT source, fingerprint, file_key, offset, lines, complete FROM positions"
                    + " ORDER BY source, updated_us")) {
      while (rs.next()) {
        out.add(
            new FilePosition(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getInt(6) != 0));
      }
      return out;
    }
  }

  /** Stores (or replaces) a file's position, updated at {@code now} (microseconds). */
  static void savePosition(Connection db, FilePosition position, long now) throws SQLException {
    try (PreparedStatement pos =
        db.prepareStatement(
            "INSERT OR REPLACE INTO positions (source, fingerprint, file_key, offset, lines,"
                + " complete, updated_us) VALUES (?,?,?,?,?,?,?)")) {
      pos.setString(1, position.source());
      pos.setString(2, position.fingerprint());
      pos.setString(3, position.fileKey());
      pos.setLong(4, position.offset());
      pos.setLong(5, position.lines());
      pos.setInt(6, position.complete() ? 1 : 0);
      pos.setLong(7, now);
      pos.executeUpdate();
    }
  }

  /** Stores rejected lines seen at {@code now} (microseconds), ignoring keys already stored. */
  static void insertRejections(
      Connection db, String source, List<KeyedRejection> rejections, long now) throws SQLException {
    try (PreparedStatement rej =
        db.prepareStatement(
            "INSERT OR IGNORE INTO rejected_lines (key, source, reason, seen_us) VALUES (?,?,?,?)")) {
      for (KeyedRejection r : rejections) {
        rej.setString(1, r.key());
        rej.setString(2, source);
        rej.setString(3, r.reason());
        rej.setLong(4, now);
        rej.addBatch();
      }
      rej.executeBatch();
    }
  }

  /** Rejected lines per log and reason. */
  static Map<String, Map<String, Long>> rejections(Connection db) throws SQLException {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    try (Statement st = db.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT source, reason, count(*) FROM rejected_lines GROUP BY source, reason")) {
      while (rs.next()) {
        out.computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
            .put(rs.getString(2), rs.getLong(3));
      }
      return out;
    }
  }
}
