package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The file's bytes by state: free (still to fetch, in file order), running (in {@link Block}s being
 * fetched) and done (written). A range leaves the free pool when a block is opened for it and comes
 * back when a block stops early, is cut back, or a piece fails its check. Not thread-safe: guarded
 * by the scheduler's lock; a block's own fields by its monitor.
 */
final class RangePool {
  private final long size;
  private final RangeSet free = new RangeSet();
  private final RangeSet done;
  private final List<Block> active = new ArrayList<>();

  /** A pool for a file of {@code size} bytes of which {@code alreadyDone} (or none) are done. */
  RangePool(long size, RangeSet alreadyDone) {
    this.size = size;
    this.done = alreadyDone == null ? new RangeSet() : alreadyDone.copy();
    free.add(0, size);
    for (ByteRange r : done.list()) {
      free.remove(r.start(), r.end());
    }
  }

  long size() {
    return size;
  }

  long freeBytes() {
    return free.total();
  }

  boolean hasFree() {
    return !free.isEmpty();
  }

  /** Start of the first free range; -1 when none is free. */
  long firstFreeStart() {
    return free.firstStart();
  }

  /** Length of the first free range; 0 when none is free. */
  long firstFreeLength() {
    return free.firstLength();
  }

  /** Takes up to {@code max} bytes from the start of the first free range; null when none. */
  ByteRange take(long max) {
    return free.takeFirst(max);
  }

  /**
   * Takes {@code [start, end)} from the free pool if all of it is free; false (and no change) if
   * not.
   */
  boolean takeExact(long start, long end) {
    if (start >= end || !free.contains(start, end)) {
      return false;
    }
    free.remove(start, end);
    return true;
  }

  /** Returns {@code [start, end)} to the free pool. */
  void giveBack(long start, long end) {
    free.add(start, end);
  }

  /** Whether every byte of the range is done. */
  boolean isDone(ByteRange r) {
    return done.contains(r.start(), r.end());
  }

  /** Whether every byte of the file is done. */
  boolean allDone() {
    return done.total() == size;
  }

  /** Moves a done range back to the free pool (its bytes turned out bad). */
  void redo(ByteRange r) {
    done.remove(r.start(), r.end());
    free.add(r.start(), r.end());
  }

  /** Opens a running block for {@code [start, end)}, which the caller took from the pool. */
  Block open(long start, long end) {
    Block b = new Block(start, end);
    active.add(b);
    return b;
  }

  /** The running blocks, oldest first (a live view). */
  List<Block> active() {
    return Collections.unmodifiableList(active);
  }

  /** Cancels with the given reason every request for a running block that overlaps the range. */
  void cancel(ByteRange range, String reason) {
    for (Block b : active) {
      if (b.start < range.end() && range.start() < b.end) {
        for (Lease l : b.leases) {
          l.cancelReason = reason;
        }
      }
    }
  }

  /** Cancels every request for a running block with the given reason. */
  void cancelAll(String reason) {
    for (Block b : active) {
      for (Lease l : b.leases) {
        l.cancelReason = reason;
      }
    }
  }

  /** Bytes not yet committed: the free pool plus the unfinished part of every active block. */
  long remainingBytes() {
    long r = free.total();
    for (Block b : active) {
      synchronized (b) {
        r += Math.max(0, b.end - b.committed);
      }
    }
    return r;
  }

  /**
   * Records a block once it is fully written (even while a slower duplicate still runs), or once
   * nobody fetches it any more: the written prefix is done, the rest returns to the pool.
   */
  void settle(Block b) {
    if (b.recorded) {
      return;
    }
    synchronized (b) {
      if (b.committed >= b.end) {
        b.done = true;
        b.recorded = true;
        done.add(b.start, b.end);
        active.remove(b);
      } else if (b.leases.isEmpty()) {
        b.done = true;
        b.recorded = true;
        done.add(b.start, b.committed);
        free.add(b.committed, b.end);
        active.remove(b);
      }
    }
  }

  /** The committed ranges: finished blocks plus the written prefix of active ones. */
  RangeSet committed() {
    RangeSet c = done.copy();
    for (Block b : active) {
      synchronized (b) {
        c.add(b.start, b.committed);
      }
    }
    return c;
  }

  /** The length of the committed range that starts at byte 0; 0 when byte 0 is not committed. */
  long committedPrefix() {
    List<ByteRange> c = committed().list();
    return c.isEmpty() || c.get(0).start() != 0 ? 0 : c.get(0).end();
  }
}
