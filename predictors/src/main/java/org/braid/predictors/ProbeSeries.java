package org.braid.predictors;

import java.util.Objects;

/**
 * The probe series a regression model reads beside the transfers (paper 003 section 3.2): the
 * network probe's bandwidth and the server's disk load. An empty series means that probe is absent.
 *
 * @param network the network probe series (for example the provider's 64 KiB probe bandwidth to the
 *     peer, bytes per second), possibly empty
 * @param disk the disk load series (utilisation percent or MB/s), possibly empty
 */
public record ProbeSeries(Series network, Series disk) {

  /** No probe series at all. */
  public static final ProbeSeries NONE =
      new ProbeSeries(Series.empty("network"), Series.empty("disk"));

  /**
   * Checks the series.
   *
   * @throws NullPointerException if a series is null (use an empty series for an absent probe)
   */
  public ProbeSeries {
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(disk, "disk");
  }

  /** Whether there is no probe series at all. */
  public boolean isEmpty() {
    return network.isEmpty() && disk.isEmpty();
  }

  /** Whether the probes allow the given regression model (each series it reads is present). */
  public boolean allow(Multivariate model) {
    return (!model.usesNetwork() || !network.isEmpty()) && (!model.usesDisk() || !disk.isEmpty());
  }
}
