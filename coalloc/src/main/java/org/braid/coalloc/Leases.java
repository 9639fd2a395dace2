package org.braid.coalloc;

import java.io.IOException;

/**
 * What a fetch loop asks of a scheduler: the next request for its flow, where the bytes it reads
 * go, and how the request ended. {@link BlockScheduler} is the one for a single file; a fetch loop
 * written against this interface ({@link Fetcher}) serves any. Implementations are thread-safe.
 */
interface Leases {
  /** Writes bytes {@code [offset, offset+length)} of the chunk just read to file position. */
  interface ChunkWriter {
    void write(long position, int offset, int length) throws IOException;
  }

  /** What a fetcher does after a chunk. */
  enum Step {
    CONTINUE,
    /** The lease's range is complete. */
    DONE,
    /** Another flow delivered these bytes first, or the replica was dropped: stop. */
    STOP
  }

  /** A range of a lease to ask its replica for, sent ahead of the ranges before it (pipelining). */
  record Request(Lease lease, long offset, long length) {}

  /** Waits until the flow has work; null when the download is over or the flow may not work. */
  Lease await(Flow f) throws InterruptedException;

  /**
   * For a flow whose source answers requests in order on one connection (pipelining) and that has
   * nothing on its way: waits until there is something to ask for and returns the first request;
   * null when the download is over or the flow may not work.
   */
  Request awaitRequest(Flow f) throws InterruptedException;

  /**
   * For a pipelining flow with {@code inFlight} bytes requested and not received: the request to
   * send now so that its replica never waits for one (more of its newest lease, or the start of the
   * next, taken ahead), or null when enough is on its way or nothing is left to take now.
   * Non-blocking. The bytes of a request sent are never cut from its lease.
   */
  Request more(Flow f, long inFlight);

  /** Accepts {@code n} bytes read by a lease; writes the part nobody wrote yet. */
  Step deliver(Lease l, int n, ChunkWriter w) throws IOException;

  /** A lease that stopped early: lost a race, or its replica was dropped meanwhile. */
  void release(Lease l);

  /** A lease failed: its range returns to the pool and its replica backs off or is dropped. */
  void fail(Lease l, Exception e);

  /**
   * Whether every byte is given out (the end game: blocks are split and raced from now on, and a
   * replica's rate changes with the work left, not with its link).
   */
  default boolean ending() {
    return false;
  }
}
