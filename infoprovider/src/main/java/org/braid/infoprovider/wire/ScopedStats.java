package org.braid.infoprovider.wire;

import java.util.Objects;
import org.braid.infoprovider.stats.TransferStats;

/**
 * One statistics group as a provider publishes it: the statistics and the endpoint whose server's
 * logs they come from.
 *
 * @param endpoint the endpoint, or null for host-level statistics (logs tied to no endpoint)
 * @param stats the statistics
 */
public record ScopedStats(Endpoint endpoint, TransferStats stats) {

  /**
   * Checks the statistics are given.
   *
   * @throws NullPointerException if stats is null
   */
  public ScopedStats {
    Objects.requireNonNull(stats, "stats");
  }

  /** Host-level statistics. */
  public static ScopedStats ofHost(TransferStats stats) {
    return new ScopedStats(null, stats);
  }

  /** The endpoint's URL, or "" for host-level statistics. */
  public String endpointUrl() {
    return endpoint == null ? "" : endpoint.url();
  }
}
