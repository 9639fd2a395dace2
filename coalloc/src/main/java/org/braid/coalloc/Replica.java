package org.braid.coalloc;

import java.net.URI;

/** Scheduler state of one replica; guarded by the scheduler's lock. */
final class Replica {
  final int index;
  final URI uri;

  /** Predicted bytes per second, or 0 when unknown. */
  final double predictedRate;

  /**
   * Whether the replica ignores Range and sends only the whole file: it is read as one flow from
   * its first byte, never asked for ranges (see {@link Assigner}).
   */
  boolean wholeFile;

  boolean dropped;
  String dropReason;
  int consecutiveFailures;
  int failures;
  long backoffUntilNanos;

  /** Pieces this replica wrote that failed their hash check (scheduler lock). */
  int badPieces;

  /** Byte ranges of those pieces: refetched from another replica when one is left. */
  final RangeSet badRanges = new RangeSet();

  Replica(int index, URI uri, double predictedRate) {
    this.index = index;
    this.uri = uri;
    this.predictedRate = predictedRate;
  }
}
