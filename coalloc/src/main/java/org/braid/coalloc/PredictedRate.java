package org.braid.coalloc;

import java.net.URI;
import java.util.Objects;

/**
 * A forecast transfer rate from one replica to this client, as the broker's plan provides it. The
 * history-based scheme splits the file in proportion to these rates; the default scheme sizes its
 * first blocks from them.
 *
 * @param uri the replica
 * @param bytesPerSecond the predicted rate, positive
 */
public record PredictedRate(URI uri, double bytesPerSecond) {
  /**
   * Checks the values.
   *
   * @throws NullPointerException if uri is null
   * @throws IllegalArgumentException if the rate is not positive and finite
   */
  public PredictedRate {
    Objects.requireNonNull(uri, "uri");
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException(
          "predicted rate for " + uri + " must be positive: " + bytesPerSecond);
    }
  }
}
