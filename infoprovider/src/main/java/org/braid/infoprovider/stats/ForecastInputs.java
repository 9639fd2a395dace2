package org.braid.infoprovider.stats;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.braid.predictors.Forecaster;
import org.braid.predictors.Series;

/**
 * What forecasts in the statistics are made with.
 *
 * @param forecaster the forecaster (its default: the published rule, Braid's default rule over the
 *     peer's whole log with the size classes as contexts and, when the peer has a network series or
 *     the server a disk series, the regression models of paper 003's Table 1 among its candidates;
 *     a training size of 15)
 * @param network the network probe series per peer (bandwidth of the 64 KiB probe); a peer without
 *     one gets univariate forecasts only
 * @param disk the disk load series of the server (utilisation percent), may be empty
 * @param at the time forecasts are made for
 * @param maxHistory the most recent transfers of a group a forecast is made from (regression costs
 *     O(n^2)); default {@value #DEFAULT_MAX_HISTORY}
 */
public record ForecastInputs(
    Forecaster forecaster, Map<String, Series> network, Series disk, Instant at, int maxHistory) {

  /** Default history bound per group: 200 transfers. */
  public static final int DEFAULT_MAX_HISTORY = 200;

  /**
   * Checks the inputs.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if maxHistory is below 1
   */
  public ForecastInputs {
    Objects.requireNonNull(forecaster, "forecaster");
    network = Map.copyOf(network);
    Objects.requireNonNull(disk, "disk");
    Objects.requireNonNull(at, "at");
    if (maxHistory < 1) {
      throw new IllegalArgumentException("maxHistory must be positive: " + maxHistory);
    }
  }

  /** Univariate forecasts with the default forecaster, no probe series. */
  public static ForecastInputs univariate(Instant at) {
    return new ForecastInputs(
        Forecaster.builder().build(), Map.of(), Series.empty("disk"), at, DEFAULT_MAX_HISTORY);
  }
}
