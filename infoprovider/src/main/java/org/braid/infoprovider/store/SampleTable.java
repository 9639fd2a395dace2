package org.braid.infoprovider.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code samples} table: probe series, one value per series and time. Callers hold the store's
 * lock and commit.
 */
final class SampleTable {

  private SampleTable() {}

  /** Stores one point, replacing one with the same series and time. */
  static void add(Connection db, String series, Point point) throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "INSERT OR REPLACE INTO samples (series, time_us, value) VALUES (?,?,?)")) {
      ps.setString(1, series);
      ps.setLong(2, Micros.of(point.time()));
      ps.setDouble(3, point.value());
      ps.executeUpdate();
    }
  }

  /** The names of all series with points, sorted. */
  static List<String> names(Connection db) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT DISTINCT series FROM samples ORDER BY series")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  /** The points of a series at or after {@code cutoff} (microseconds), oldest first. */
  static List<Point> points(Connection db, String series, long cutoff) throws SQLException {
    List<Point> out = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT time_us, value FROM samples WHERE series = ? AND time_us >= ? ORDER BY time_us")) {
      ps.setString(1, series);
      ps.setLong(2, cutoff);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Point(Micros.toInstant(rs.getLong(1)), rs.getDouble(2)));
        }
      }
      return out;
    }
  }
}
