package org.braid.coalloc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A contiguous range in transfer. {@code end}, {@code committed} and {@code done} are guarded by
 * the block's own monitor, which is also held while its bytes are written, so a byte counted as
 * committed is always in the file; {@code leases} is guarded by the scheduler's lock.
 */
final class Block {
  final long start;
  long end;
  long committed;
  boolean done;

  /** Whether its bytes were added to the done set (scheduler lock). */
  boolean recorded;

  final List<Lease> leases = new ArrayList<>(2);

  Block(long start, long end) {
    this.start = start;
    this.end = end;
    this.committed = start;
  }

  /** What a chunk did: {@code length} bytes written from {@code from}, and whether it ended. */
  record Written(long from, long length, boolean reachedEnd) {}

  /**
   * Writes the part of a lease's chunk of {@code n} bytes that nobody wrote yet, under the block's
   * monitor, so a byte counted as committed is always in the file. Null when the lease must stop:
   * it was cancelled, or another lease finished the block first.
   */
  synchronized Written accept(Lease l, int n, Leases.ChunkWriter w) throws IOException {
    if (l.cancelReason != null) {
      return null;
    }
    if (done && l.pos < end) {
      return null;
    }
    long cs = l.pos;
    long ce = Math.min(l.pos + n, end);
    long wf = Math.max(cs, committed);
    long wrote = 0;
    long wroteFrom = 0;
    if (wf < ce) {
      w.write(wf, (int) (wf - cs), (int) (ce - wf));
      committed = ce;
      wrote = ce - wf;
      wroteFrom = wf;
    }
    l.pos = Math.max(cs, ce);
    boolean reachedEnd = l.pos >= end;
    if (reachedEnd) {
      done = true;
    }
    return new Written(wroteFrom, wrote, reachedEnd);
  }
}
