package org.braid.infoprovider.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.FilePosition;
import org.braid.infoprovider.logs.TailSink;

/**
 * The provider's embedded SQLite database (WAL mode): transfers keyed by a hash of their log line
 * (re-reading a line never counts it twice), log positions, rejection counts and probe series.
 * Records older than the retention (default 30 days) are not stored and are purged by {@link
 * #purge()}. The schema has a version; a database written by a newer provider is refused.
 *
 * <p>Thread-safe: every method is synchronized on the store (SQLite has one writer anyway). The
 * tables' SQL lives in {@code Schema}, {@code TransferTable}, {@code LogProgressTables} and {@code
 * SampleTable}; this class holds the connection, the retention, transactions and error messages.
 */
public final class Store implements TailSink, AutoCloseable {

  /** The schema version this code reads and writes. */
  public static final int SCHEMA_VERSION = Schema.VERSION;

  /** Default retention: 30 days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

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
    return new Store(Schema.open(file), file.toString(), clock, retention);
  }

  /** The journal mode SQLite reports ("wal"). */
  public synchronized String journalMode() throws StoreException {
    try (Statement st = db.createStatement()) {
      return Schema.journalMode(st);
    } catch (SQLException e) {
      throw fail("read journal mode", e);
    }
  }

  /** The schema version stored in the database. */
  public synchronized int schemaVersion() throws StoreException {
    try (Statement st = db.createStatement()) {
      return Schema.version(st);
    } catch (SQLException e) {
      throw fail("read schema version", e);
    }
  }

  @Override
  public synchronized FilePosition position(String source, String fingerprint)
      throws StoreException {
    try {
      return LogProgressTables.position(db, source, fingerprint);
    } catch (SQLException e) {
      throw fail("read position of " + source, e);
    }
  }

  /** Every stored position, for status reports. */
  public synchronized List<FilePosition> positions() throws StoreException {
    try {
      return LogProgressTables.positions(db);
    } catch (SQLException e) {
      throw fail("read positions", e);
    }
  }

  @Override
  public synchronized List<TransferRecord> commit(
      FilePosition position, List<KeyedRecord> records, List<KeyedRejection> rejections)
      throws StoreException {
    try {
      List<TransferRecord> stored = TransferTable.insert(db, position.source(), records, cutoff());
      long now = Micros.of(clock.instant());
      LogProgressTables.insertRejections(db, position.source(), rejections, now);
      LogProgressTables.savePosition(db, position, Micros.of(clock.instant()));
      db.commit();
      return stored;
    } catch (SQLException e) {
      rollback();
      throw fail("store " + records.size() + " transfers from " + position.source(), e);
    }
  }

  /** Number of stored transfers. */
  public synchronized long transferCount() throws StoreException {
    try {
      return TransferTable.count(db);
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
    try {
      TransferTable.read(db, source, cutoff(), sink);
    } catch (SQLException e) {
      throw fail("read transfers", e);
    }
  }

  /**
   * Forgets one log ({@code source}, as {@link #forEachTransfer(String, Consumer)} names it): its
   * transfers and how far its files were read, so that a tailer reads them again from their start
   * (for example to store what an older version of the store did not keep).
   *
   * @return the transfers deleted
   * @throws NullPointerException if source is null
   */
  public synchronized int forget(String source) throws StoreException {
    Objects.requireNonNull(source, "source");
    try {
      int n = TransferTable.forget(db, source);
      db.commit();
      return n;
    } catch (SQLException e) {
      rollback();
      throw fail("forget " + source, e);
    }
  }

  /** Rejected lines per log and reason, each line counted once, within the retention. */
  public synchronized Map<String, Map<String, Long>> rejections() throws StoreException {
    try {
      return LogProgressTables.rejections(db);
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
    try {
      SampleTable.add(db, series, point);
      db.commit();
    } catch (SQLException e) {
      rollback();
      throw fail("store sample of " + series, e);
    }
  }

  /** The names of all probe series with points, sorted. */
  public synchronized List<String> seriesNames() throws StoreException {
    try {
      return SampleTable.names(db);
    } catch (SQLException e) {
      throw fail("list series", e);
    }
  }

  /** The points of a series within the retention, oldest first; empty if unknown. */
  public synchronized List<Point> series(String series) throws StoreException {
    Objects.requireNonNull(series, "series");
    try {
      return SampleTable.points(db, series, cutoff());
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
    long cutoff = cutoff();
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

  /** The oldest time (microseconds) within the retention. */
  private long cutoff() {
    return Micros.of(clock.instant().minus(retention));
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
}
