package org.braid.infoprovider.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.logs.FilePosition;
import org.braid.infoprovider.logs.TailSink;

/**
 * The provider's embedded SQLite database (WAL mode): transfers keyed by a hash of their log line
 * (re-reading a line never counts it twice), log positions, rejection counts and probe series.
 * Records older than the retention (default 30 days) are not stored and are purged by {@link
 * #purge()}. The schema has a version; a database written by a newer provider is refused.
 *
 * <p>Thread-safe: every method is synchronized on the store (SQLite has one writer anyway).
 */
public final class Store implements TailSink, AutoCloseable {

  /** The schema version this code reads and writes. */
  public static final int SCHEMA_VERSION = 1;

  /** Default retention: 30 days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS transfers (key TEXT PRIMARY KEY, source TEXT NOT NULL,"
        + " server TEXT NOT NULL, peer TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,"
        + " start_us INTEGER NOT NULL, end_us INTEGER NOT NULL, streams INTEGER NOT NULL,"
        + " tcp_buffer INTEGER NOT NULL, block_size INTEGER NOT NULL, operation TEXT NOT NULL,"
        + " volume TEXT NOT NULL, result TEXT NOT NULL, protocol TEXT NOT NULL)",
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

  private final Connection db;
  private final String name;
  private final InstantSource clock;
  private final Duration retention;

  private Store(Connection db, String name, InstantSource clock, Duration retention) {
    this.db = db;
    this.name = name;
    this.clock = clock;
    this.retention = retention;
  }

  /**
   * Opens (creating if needed) the database at {@code file}.
   *
   * @param file the database file; its directory is created if missing
   * @param clock the clock for retention
   * @param retention how long records and samples are kept, positive
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if retention is not positive
   * @throws StoreException if the database cannot be opened or has a newer schema
   */
  public static Store open(Path file, InstantSource clock, Duration retention)
      throws StoreException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(retention, "retention");
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive: " + retention);
    }
    String name = file.toString();
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try {
        try (Statement st = c.createStatement()) {
          st.execute("PRAGMA journal_mode=WAL");
          st.execute("PRAGMA synchronous=NORMAL");
          st.execute("PRAGMA busy_timeout=5000");
          for (String ddl : SCHEMA) {
            st.execute(ddl);
          }
          try (ResultSet rs = st.executeQuery("SELECT max(version) FROM schema_version")) {
            int v = rs.next() ? rs.getInt(1) : 0;
            if (v == 0) {
              st.execute("INSERT INTO schema_version (version) VALUES (" + SCHEMA_VERSION + ")");
            } else if (v > SCHEMA_VERSION) {
              throw new StoreException(
                  "database "
                      + name
                      + " has schema version "
                      + v
                      + ", newer than this provider's "
                      + SCHEMA_VERSION,
                  null);
            }
          }
        }
        c.setAutoCommit(false);
        c.commit();
        return new Store(c, name, clock, retention);
      } catch (SQLException | StoreException e) {
        c.close();
        throw e;
      }
    } catch (SQLException | java.io.IOException e) {
      if (e instanceof StoreException) {
        throw (StoreException) e;
      }
      throw new StoreException("cannot open database " + name + ": " + e.getMessage(), e);
    }
  }

  /** The journal mode SQLite reports ("wal"). */
  public synchronized String journalMode() throws StoreException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw fail("read journal mode", e);
    }
  }

  /** The schema version stored in the database. */
  public synchronized int schemaVersion() throws StoreException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT max(version) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw fail("read schema version", e);
    }
  }

  @Override
  public synchronized FilePosition position(String source, String fingerprint)
      throws StoreException {
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
    } catch (SQLException e) {
      throw fail("read position of " + source, e);
    }
  }

  /** Every stored position, for status reports. */
  public synchronized List<FilePosition> positions() throws StoreException {
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
    } catch (SQLException e) {
      throw fail("read positions", e);
    }
  }

  @Override
  public synchronized List<TransferRecord> commit(
      FilePosition position, List<KeyedRecord> records, List<KeyedRejection> rejections)
      throws StoreException {
    long cutoff = micros(clock.instant().minus(retention));
    List<TransferRecord> candidates = new ArrayList<>();
    List<TransferRecord> stored = new ArrayList<>();
    try {
      try (PreparedStatement ins =
          db.prepareStatement(
              "INSERT OR IGNORE INTO transfers (key, source, server, peer, path, size, start_us,"
                  + " end_us, streams, tcp_buffer, block_size, operation, volume, result, protocol)"
                  + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
        for (KeyedRecord kr : records) {
          TransferRecord r = kr.record();
          if (micros(r.end()) < cutoff) {
            continue;
          }
          ins.setString(1, kr.key());
          ins.setString(2, position.source());
          ins.setString(3, r.server());
          ins.setString(4, r.peer());
          ins.setString(5, r.path());
          ins.setLong(6, r.size());
          ins.setLong(7, micros(r.start()));
          ins.setLong(8, micros(r.end()));
          ins.setInt(9, r.streams());
          ins.setLong(10, r.tcpBuffer());
          ins.setLong(11, r.blockSize());
          ins.setString(12, r.operation().label());
          ins.setString(13, r.volume());
          ins.setString(14, r.resultCode());
          ins.setString(15, r.protocol());
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
      try (PreparedStatement rej =
          db.prepareStatement(
              "INSERT OR IGNORE INTO rejected_lines (key, source, reason, seen_us) VALUES (?,?,?,?)")) {
        long now = micros(clock.instant());
        for (KeyedRejection r : rejections) {
          rej.setString(1, r.key());
          rej.setString(2, position.source());
          rej.setString(3, r.reason());
          rej.setLong(4, now);
          rej.addBatch();
        }
        rej.executeBatch();
      }
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
        pos.setLong(7, micros(clock.instant()));
        pos.executeUpdate();
      }
      db.commit();
      return stored;
    } catch (SQLException e) {
      rollback();
      throw fail("store " + records.size() + " transfers from " + position.source(), e);
    }
  }

  /** Number of stored transfers. */
  public synchronized long transferCount() throws StoreException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM transfers")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw fail("count transfers", e);
    }
  }

  /** Hands every stored transfer within the retention to {@code sink}, oldest end first. */
  public synchronized void forEachTransfer(Consumer<TransferRecord> sink) throws StoreException {
    transfers(null, sink);
  }

  /**
   * Hands every stored transfer read from one log ({@code source}: the log's absolute path, as a
   * {@link org.braid.infoprovider.logs.LogTailer} names it) within the retention to {@code sink},
   * oldest end first.
   *
   * @throws NullPointerException if an argument is null
   */
  public synchronized void forEachTransfer(String source, Consumer<TransferRecord> sink)
      throws StoreException {
    transfers(Objects.requireNonNull(source, "source"), Objects.requireNonNull(sink, "sink"));
  }

  private void transfers(String source, Consumer<TransferRecord> sink) throws StoreException {
    long cutoff = micros(clock.instant().minus(retention));
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT server, peer, path, size, start_us, end_us, streams, tcp_buffer, block_size,"
                + " operation, volume, result, protocol FROM transfers WHERE end_us >= ?"
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
                  instant(rs.getLong(5)),
                  instant(rs.getLong(6)),
                  rs.getInt(7),
                  rs.getLong(8),
                  rs.getLong(9),
                  Operation.parse(rs.getString(10)),
                  rs.getString(11),
                  rs.getString(12),
                  rs.getString(13)));
        }
      }
    } catch (SQLException e) {
      throw fail("read transfers", e);
    }
  }

  /** Rejected lines per log and reason, each line counted once, within the retention. */
  public synchronized Map<String, Map<String, Long>> rejections() throws StoreException {
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
    } catch (SQLException e) {
      throw fail("read rejections", e);
    }
  }

  /**
   * Adds one observation to a probe series (replacing one with the same series and time).
   *
   * @throws NullPointerException if series or point is null
   */
  public synchronized void addSample(String series, Point point) throws StoreException {
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(point, "point");
    try (PreparedStatement ps =
        db.prepareStatement(
            "INSERT OR REPLACE INTO samples (series, time_us, value) VALUES (?,?,?)")) {
      ps.setString(1, series);
      ps.setLong(2, micros(point.time()));
      ps.setDouble(3, point.value());
      ps.executeUpdate();
      db.commit();
    } catch (SQLException e) {
      rollback();
      throw fail("store sample of " + series, e);
    }
  }

  /** The names of all probe series with points, sorted. */
  public synchronized List<String> seriesNames() throws StoreException {
    List<String> out = new ArrayList<>();
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT DISTINCT series FROM samples ORDER BY series")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    } catch (SQLException e) {
      throw fail("list series", e);
    }
  }

  /** The points of a series within the retention, oldest first; empty if unknown. */
  public synchronized List<Point> series(String series) throws StoreException {
    Objects.requireNonNull(series, "series");
    long cutoff = micros(clock.instant().minus(retention));
    List<Point> out = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT time_us, value FROM samples WHERE series = ? AND time_us >= ? ORDER BY time_us")) {
      ps.setString(1, series);
      ps.setLong(2, cutoff);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Point(instant(rs.getLong(1)), rs.getDouble(2)));
        }
      }
      return out;
    } catch (SQLException e) {
      throw fail("read series " + series, e);
    }
  }

  /**
   * Deletes transfers, samples and rejected-line records older than the retention.
   *
   * @return rows deleted per kind ("transfers", "samples", "rejectedLines")
   */
  public synchronized Map<String, Integer> purge() throws StoreException {
    long cutoff = micros(clock.instant().minus(retention));
    Map<String, Integer> out = new LinkedHashMap<>();
    try (PreparedStatement t = db.prepareStatement("DELETE FROM transfers WHERE end_us < ?");
        PreparedStatement s = db.prepareStatement("DELETE FROM samples WHERE time_us < ?");
        PreparedStatement r = db.prepareStatement("DELETE FROM rejected_lines WHERE seen_us < ?")) {
      t.setLong(1, cutoff);
      out.put("transfers", t.executeUpdate());
      s.setLong(1, cutoff);
      out.put("samples", s.executeUpdate());
      r.setLong(1, cutoff);
      out.put("rejectedLines", r.executeUpdate());
      db.commit();
      return out;
    } catch (SQLException e) {
      rollback();
      throw fail("purge", e);
    }
  }

  @Override
  public synchronized void close() throws StoreException {
    try {
      db.close();
    } catch (SQLException e) {
      throw fail("close", e);
    }
  }

  private void rollback() {
    try {
      db.rollback();
    } catch (SQLException ignored) {
      // The original failure is the one worth reporting.
    }
  }

  private StoreException fail(String what, SQLException e) {
    return new StoreException("database " + name + ": cannot " + what + ": " + e.getMessage(), e);
  }

  static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
  }

  static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }
}
