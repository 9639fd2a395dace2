package org.braid.coalloc;

import java.nio.channels.ReadableByteChannel;

/** A range channel fed by several parallel TCP streams; the journal records how many. */
interface ParallelChannel extends ReadableByteChannel {
  /** The parallel data connections this range was asked over. */
  int streams();
}
