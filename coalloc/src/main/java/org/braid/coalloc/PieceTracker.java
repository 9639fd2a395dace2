package org.braid.coalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pieces of the file (see {@link PieceHashes}) are verified, which wait to be rejected, and
 * which replicas wrote bytes of each unverified piece. Without piece hashes ({@link #none}) every
 * piece counts as verified. Not thread-safe: guarded by the scheduler's lock.
 */
final class PieceTracker {
  private final PieceHashes hashes;
  private final long size;
  private final BitSet verified = new BitSet();

  /** Bad pieces whose block is still being fetched: rejected once the block stops. */
  private final BitSet rejecting = new BitSet();

  /** Pieces handed out to be checked and not reported on yet. */
  private final BitSet checking = new BitSet();

  /** Replicas that wrote bytes of each piece not yet verified (bounded by pieces in flight). */
  private final Map<Integer, BitSet> writers = new HashMap<>();

  private PieceTracker(PieceHashes hashes, long size) {
    this.hashes = hashes;
    this.size = size;
  }

  /** No piece verification: the file is finished once every byte is written. */
  static PieceTracker none(long size) {
    return new PieceTracker(null, size);
  }

  /**
   * Tracks the given pieces of a file of {@code size} bytes; those entirely done in the pool
   * already (resumed and re-checked by the caller) count as verified.
   */
  static PieceTracker of(PieceHashes hashes, long size, RangePool pool) {
    PieceTracker t = new PieceTracker(hashes, size);
    for (int i = 0; i < hashes.hex().size(); i++) {
      if (pool.isDone(t.range(i))) {
        t.verified.set(i);
      }
    }
    return t;
  }

  /** The digest algorithm of the pieces. */
  String algorithm() {
    return hashes.algorithm();
  }

  /** Byte range of piece {@code i}. */
  ByteRange range(int i) {
    return hashes.range(i, size);
  }

  /**
   * Pieces all of whose bytes are committed but which are neither verified nor being checked; a
   * piece waiting to be rejected only once its bytes are done (its block stopped). Each piece
   * returned counts as being checked until {@link #verified}, {@link #reject} or {@link
   * #rejectLater} reports on it, so that checks running in parallel never check one piece twice.
   */
  List<Integer> toVerify(RangeSet committed, RangePool pool) {
    List<Integer> out = new ArrayList<>();
    if (hashes == null) {
      return out;
    }
    for (ByteRange r : committed.list()) {
      int i = (int) (r.start() / hashes.length());
      for (i = verified.nextClearBit(i); i < count(); i = verified.nextClearBit(i + 1)) {
        ByteRange pr = range(i);
        if (pr.start() >= r.end()) {
          break;
        }
        if (pr.start() >= r.start()
            && pr.end() <= r.end()
            && !checking.get(i)
            && (!rejecting.get(i) || pool.isDone(pr))) {
          checking.set(i);
          out.add(i);
        }
      }
    }
    return out;
  }

  /** Piece {@code i} matched its digest. */
  void verified(int i) {
    checking.clear(i);
    verified.set(i);
    writers.remove(i);
  }

  /** Piece {@code i} is bad but its block still runs: reject it once the block stopped. */
  void rejectLater(int i) {
    checking.clear(i);
    rejecting.set(i);
  }

  /** Piece {@code i} is rejected: returns the replicas that wrote bytes of it, or null. */
  BitSet reject(int i) {
    checking.clear(i);
    rejecting.clear(i);
    return writers.remove(i);
  }

  /** A replica wrote bytes {@code [from, to)}. */
  void wrote(int replica, long from, long to) {
    if (hashes == null) {
      return;
    }
    long len = hashes.length();
    for (long i = from / len; i * len < to; i++) {
      writers.computeIfAbsent((int) i, k -> new BitSet()).set(replica);
    }
  }

  /** Whether every piece is verified (always, without piece hashes). */
  boolean allVerified() {
    return hashes == null || verified.cardinality() == count();
  }

  /** The end of the leading verified pieces: the file size without piece hashes. */
  long verifiedPrefix() {
    if (hashes == null) {
      return size;
    }
    int firstUnverified = verified.nextClearBit(0);
    return firstUnverified >= count() ? size : range(firstUnverified).start();
  }

  private int count() {
    return hashes.hex().size();
  }
}
