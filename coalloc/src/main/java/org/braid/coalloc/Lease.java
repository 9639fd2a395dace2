package org.braid.coalloc;

/** One flow fetching a block from {@code from}; {@code pos} is guarded by the block's monitor. */
final class Lease {
  final Block block;
  final Flow flow;
  final long from;
  final boolean duplicate;
  final long startNanos;
  long pos;
  long firstByteNanos = -1;
  long written;
  long received;

  /** Parallel TCP streams the range was asked over (GridFTP MODE E), 1 otherwise. */
  volatile int streams = 1;

  volatile String cancelReason;

  Lease(Block block, Flow flow, long from, boolean duplicate, long startNanos) {
    this.block = block;
    this.flow = flow;
    this.from = from;
    this.pos = from;
    this.duplicate = duplicate;
    this.startNanos = startNanos;
  }

  /**
   * Starts the flow's request for the block from {@code from}: the lease joins the block's and
   * becomes the flow's current one.
   */
  static Lease start(Block block, Flow flow, long from, boolean duplicate, long now) {
    Lease l = new Lease(block, flow, from, duplicate, now);
    block.leases.add(l);
    flow.current = l;
    flow.lastProgressNanos = now;
    return l;
  }

  /** The end the request asks for when it starts (the block may shrink later). */
  long requestEnd() {
    synchronized (block) {
      return block.end;
    }
  }
}
