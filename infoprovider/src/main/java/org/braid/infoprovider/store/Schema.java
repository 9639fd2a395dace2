package org.braid.infoprovider.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The database's tables, its settings (WAL, a 5 s busy timeout) and its schema version: a database
 * is created at {@link #VERSION}, one of version 1 is upgraded (a {@code journal} column for the
 * client journal line of each transfer, null for version 1's rows), and one written by a newer
 * provider is refused.
 */
final class Schema {

  /** The schema version this code reads and writes. */
  static final int VERSION = 2;

  private static final String[] TABLES = {
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS transfers (key TEXT PRIMARY KEY, source TEXT NOT NULL,"
        + " server TEXT NOT NULL, peer TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,"
        + " start_us INTEGER NOT NULL, end_us INTEGER NOT NULL, streams INTEGER NOT NULL,"
        + " tcp_buffer INTEGER NOT NULL, block_size INTEGER NOT NULL, operation TEXT NOT NULL,"
        + " volume TEXT NOT NULL, result TEXT NOT NULL, protocol TEXT NOT NULL, journal TEXT)",
    "CREATE INDEX IF NOT EXISTS transfers_end ON transfers (end_us)",
    "CREATE TABLE IF NOT EXISTS positions (source TEXT NOT NULL, fingerprint TEXT NOT NULL,"
        + " file_key TEXT NOT NULL, offset INTEGER NOT NULL, lines INTEGER NOT NULL,"
        + " complete INTEGER NOT NULL, updated_us INTEGER NOT NULL,"
        + " PRIMARY KEY (source, fingerprint))",
    "CREATE TABLE IF NOT EXISTS rejected_lines (key TEXT PRIMARY KEY, source TEXT NOT NULL,"
        + " reason TEXT NOT NULL, seen_us INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS samples (series TEXT NOT NULL, time_us INTEGER NOT NULL,"
        + " value REAL NOT NULL, PRIMARY KEY (series, time_us))",
  };

  private Schema() {}

  /**
   * Opens (creating if needed) the database at {@code file} with its tables, in manual-commit mode.
   *
   * @throws StoreException if it cannot be opened or has a newer schema
   */
  static Connection open(Path file) throws StoreException {
    String name = file.toString();
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try {
        create(c, name);
        c.setAutoCommit(false);
        c.commit();
        return c;
      } catch (SQLException | StoreException e) {
        c.close();
        throw e;
      }
    } catch (StoreException e) {
      throw e; // already says what is wrong with the database
    } catch (SQLException | IOException e) {
      throw new StoreException("cannot open database " + name + ": " + e.getMessage(), e);
    }
  }

  private static void create(Connection c, String name) throws SQLException, StoreException {
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("PRAGMA synchronous=NORMAL");
      st.execute("PRAGMA busy_timeout=5000");
      for (String ddl : TABLES) {
        st.execute(ddl);
      }
      int v = version(st);
      if (v == 0) {
        st.execute("INSERT INTO schema_version (version) VALUES (" + VERSION + ")");
      } else if (v == 1) {
        st.execute("ALTER TABLE transfers ADD COLUMN journal TEXT");
        st.execute("UPDATE schema_version SET version = " + VERSION);
      } else if (v > VERSION) {
        throw new StoreException(
            "database "
                + name
                + " has schema version "
                + v
                + ", newer than this provider's "
                + VERSION,
            null);
      }
    }
  }

  /** The stored schema version, 0 for a new database. */
  static int version(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT max(version) FROM schema_version")) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  /** SQLite's journal mode ("wal"). */
  static String journalMode(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
