package org.braid.coalloc;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the pieces of a download against their {@link PieceHashes} by reading them back from the
 * part file: those just written, on a few threads of its own so that pieces are hashed in parallel
 * with each other and with the transfer, and on resume those an earlier run left. Without piece
 * hashes it checks nothing. {@link #verify} and {@link #verifyAll} are called from one thread (the
 * download's); the checks report to the thread-safe scheduler.
 */
final class PieceVerifier implements AutoCloseable {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Pieces hashed at once: one per processor, at most four. */
  static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  private final String id;
  private final PieceHashes pieces;
  private final AtomicInteger running = new AtomicInteger();
  private final Object idle = new Object();
  private volatile IOException failure;
  private ExecutorService pool;

  /** A verifier for the download with the given log id; {@code pieces} may be null. */
  PieceVerifier(String id, PieceHashes pieces) {
    this.id = id;
    this.pieces = pieces;
  }

  /**
   * Starts checking every piece whose bytes are all written and that is not being checked yet;
   * returns at once. A bad piece goes back to the pool.
   *
   * @throws IOException if an earlier check could not read the part file
   */
  void verify(BlockScheduler s, PartFile part) throws IOException {
    rethrow();
    if (pieces == null) {
      return;
    }
    for (int i : s.piecesToVerify()) {
      running.incrementAndGet();
      pool().execute(() -> checkAndCount(s, part, i));
    }
  }

  /**
   * Checks every piece whose bytes are all written and waits until no check runs.
   *
   * @throws IOException if a check could not read the part file
   */
  void verifyAll(BlockScheduler s, PartFile part) throws IOException {
    verify(s, part);
    synchronized (idle) {
      while (running.get() > 0) {
        try {
          idle.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while checking pieces", e);
        }
      }
    }
    rethrow();
  }

  private void rethrow() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw f;
    }
  }

  private ExecutorService pool() {
    if (pool == null) {
      AtomicInteger n = new AtomicInteger();
      pool =
          Executors.newFixedThreadPool(
              THREADS,
              r -> {
                Thread t = new Thread(r, "braid-" + id + "-pieces" + n.getAndIncrement());
                t.setDaemon(true);
                return t;
              });
    }
    return pool;
  }

  private void checkAndCount(BlockScheduler s, PartFile part, int i) {
    try {
      check(s, part, i);
    } catch (IOException e) {
      failure = e;
      s.abort(e);
    } finally {
      if (running.decrementAndGet() == 0) {
        synchronized (idle) {
          idle.notifyAll();
        }
      }
    }
  }

  private void check(BlockScheduler s, PartFile part, int i) throws IOException {
    ByteRange r = pieces.range(i, s.size());
    String got = part.digest(pieces.algorithm(), r.start(), r.end());
    String want = pieces.hex().get(i);
    if (got.equals(want)) {
      s.pieceVerified(i);
      return;
    }
    String why =
        "piece "
            + i
            + " (bytes "
            + r.start()
            + "-"
            + r.end()
            + ") "
            + pieces.algorithm()
            + " mismatch: expected "
            + want
            + ", got "
            + got;
    LOG.warn("[{}] {}; fetching it again", id, why);
    s.pieceBad(i, why);
  }

  /**
   * The ranges of a resumed download to keep: all of them without piece hashes, else only the whole
   * pieces that match their digests again (bytes of pieces that were never checked, or no longer
   * match, are fetched anew).
   */
  RangeSet kept(PartFile part, long size) throws IOException {
    RangeSet resumed = part.resumed();
    if (pieces == null) {
      return resumed;
    }
    RangeSet kept = new RangeSet();
    for (int i = 0; i < pieces.hex().size(); i++) {
      ByteRange r = pieces.range(i, size);
      if (resumed.contains(r.start(), r.end())) {
        if (part.digest(pieces.algorithm(), r.start(), r.end()).equals(pieces.hex().get(i))) {
          kept.add(r.start(), r.end());
        } else {
          LOG.warn(
              "[{}] resumed piece {} (bytes {}-{}) does not match, fetching it again",
              id,
              i,
              r.start(),
              r.end());
        }
      }
    }
    return kept;
  }

  /** Stops the checking threads (checks still running end on their own). */
  @Override
  public void close() {
    if (pool != null) {
      pool.shutdown();
    }
  }
}
