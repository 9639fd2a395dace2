package org.braid.broker;

import java.util.Objects;
import org.braid.broker.catalog.Replica;
import org.braid.matchmaking.ClassAd;
import org.braid.predictors.Forecast;

/**
 * One replica as the broker ranked it.
 *
 * @param replica the replica
 * @param matched whether both the request's and the storage ad's Requirements held
 * @param rank the request's Rank evaluated against the ad (0 for rejected replicas, and when the
 *     rank is not a number, as in HTCondor)
 * @param forecast the bandwidth forecast for the request's size class, with paper 003's accuracy
 *     triplet; {@link Forecast.Status#INSUFFICIENT_HISTORY} when nothing was known
 * @param forecastSource where the forecast came from: {@code history} (this client's journal, what
 *     the replica's endpoint delivered in its downloads), {@code provider} (the provider's forecast
 *     for the replica's endpoint), {@code provider-average} (the provider's average, no error
 *     estimate), {@code provider-host} and {@code provider-host-average} (the same from host-level
 *     data, not tied to the replica's endpoint: its error widened by 100 percentage points) or
 *     {@code none}; with {@code -clamped} appended when the forecast was clamped to a sanity limit
 *     ({@link #forecastNote()})
 * @param ad the storage ad it was ranked on
 * @param reason for rejected replicas, the failing clauses (Matchmaker explanation), else null
 * @param discovery null when the provider answered for the replica's endpoint, else why there is no
 *     provider data for it (no provider, a failed one, none for its endpoint) or that only
 *     host-level data was used
 * @param forecastNote null, or why the forecast was clamped: it was above the highest rate ever
 *     measured from the endpoint (or below the lowest), or above this client's capacity
 */
public record RankedReplica(
    Replica replica,
    boolean matched,
    double rank,
    Forecast forecast,
    String forecastSource,
    ClassAd ad,
    String reason,
    String discovery,
    String forecastNote) {

  /** Checks the fields. */
  public RankedReplica {
    Objects.requireNonNull(replica, "replica");
    Objects.requireNonNull(forecast, "forecast");
    Objects.requireNonNull(forecastSource, "forecastSource");
    Objects.requireNonNull(ad, "ad");
  }

  /** The predicted bandwidth in bytes per second, 0 when unknown. */
  public double predictedBandwidth() {
    return forecast.isAvailable() ? forecast.value() : 0;
  }
}
