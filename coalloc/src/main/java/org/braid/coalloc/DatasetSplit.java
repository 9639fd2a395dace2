package org.braid.coalloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pieces of a file that other servers fetch for the {@link DatasetTask} that owns it, once an
 * idle server has taken over the rest of it at the tail of a job: which are still running, the
 * bytes each server delivered, and the ranges that failed (the owner fetches those itself).
 * Thread-safe.
 */
final class DatasetSplit {
  private final List<DatasetTask> pieces = new ArrayList<>();
  private final Map<String, Long> bytes = new LinkedHashMap<>();
  private final List<long[]> failed = new ArrayList<>();
  private int running;

  /** Counts a piece handed to another server (before the owner is cut). */
  synchronized void add(DatasetTask piece) {
    pieces.add(piece);
    running++;
  }

  /** Takes back a piece that was never handed over (its owner passed the cut meanwhile). */
  synchronized void withdraw(DatasetTask piece) {
    if (pieces.remove(piece)) {
      running--;
      notifyAll();
    }
  }

  /**
   * Records a piece's end: {@code ok} when its bytes {@code [from, stop)} are written, else its
   * range is left for the owner.
   */
  synchronized void done(DatasetTask piece, boolean ok) {
    long stop = piece.stop();
    if (ok) {
      bytes.merge(piece.servers.get(0).key, stop - piece.from, Long::sum);
    } else {
      failed.add(new long[] {piece.from, stop});
    }
    running--;
    notifyAll();
  }

  /** Waits until every piece has ended. */
  synchronized void await() throws InterruptedException {
    while (running > 0) {
      wait(100);
    }
  }

  /** Stops every piece still running (the owner failed or was cancelled). */
  void cancel() {
    List<DatasetTask> all;
    synchronized (this) {
      all = new ArrayList<>(pieces);
    }
    for (DatasetTask p : all) {
      p.cancel();
    }
  }

  /** Bytes delivered by each server's pieces. */
  synchronized Map<String, Long> bytes() {
    return new LinkedHashMap<>(bytes);
  }

  /** The ranges ({@code [from, to)}) whose pieces failed. */
  synchronized List<long[]> failed() {
    return new ArrayList<>(failed);
  }
}
