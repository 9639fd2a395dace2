package org.braid.coalloc;

/**
 * One flow fetching a block from {@code from}; {@code pos} and {@code sent} are guarded by the
 * block's monitor.
 */
final class Lease {
  final Block block;
  final Flow flow;
  final long from;
  final boolean duplicate;

  /** When the lease was handed out (its first request was sent). */
  final long startNanos;

  /**
   * When the flow began to read it: {@link #startNanos}, or for a lease requested ahead the end of
   * the one before (scheduler lock). Rates are measured from here.
   */
  long activeNanos;

  long pos;

  /**
   * The end of the bytes asked for in requests already sent ahead (pipelining): a cut or a split
   * never goes below it, since those bytes are on their way. Stays at {@code from} for a lease
   * fetched with one request that is closed early instead.
   */
  long sent;

  long firstByteNanos = -1;

  /**
   * Made for a request sent before the scheduler started (the probe folded into it) and read
   * sequentially: its time to the first byte, counted from the scheduler's start, is a request
   * latency only until the flow's next request measures one (set by {@link
   * BlockScheduler#firstLeasesCuttable}; pipelined flows keep it as their only measure before their
   * answers queue up).
   */
  boolean folded;

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
    this.sent = from;
    this.duplicate = duplicate;
    this.startNanos = startNanos;
    this.activeNanos = startNanos;
  }

  /**
   * Starts the flow's request for the block from {@code from}: the lease joins the block's and
   * becomes the flow's current one, or if it has one its next (requested ahead).
   */
  static Lease start(Block block, Flow flow, long from, boolean duplicate, long now) {
    Lease l = new Lease(block, flow, from, duplicate, now);
    block.leases.add(l);
    if (flow.current == null) {
      flow.current = l;
      flow.lastProgressNanos = now;
    } else {
      flow.next = l;
    }
    return l;
  }

  /** The end the request asks for when it starts (the block may shrink later). */
  long requestEnd() {
    synchronized (block) {
      return block.end;
    }
  }
}
