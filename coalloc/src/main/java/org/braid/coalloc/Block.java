package org.braid.coalloc;

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
}
