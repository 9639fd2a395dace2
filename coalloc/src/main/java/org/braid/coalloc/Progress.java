package org.braid.coalloc;

import java.util.List;

/**
 * A snapshot of a running download for progress displays.
 *
 * @param bytesDone bytes of the file written so far (including resumed ones)
 * @param size the file size
 * @param elapsedSeconds seconds since the transfer started
 * @param replicaRates receive rate per replica in bytes per second over about the last second, in
 *     replica order
 */
public record Progress(
    long bytesDone, long size, double elapsedSeconds, List<Double> replicaRates) {
  /** Copies the list. */
  public Progress {
    replicaRates = List.copyOf(replicaRates);
  }
}
