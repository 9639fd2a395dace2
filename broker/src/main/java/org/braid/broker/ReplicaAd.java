package org.braid.broker;

import java.util.Objects;
import org.braid.broker.catalog.Replica;
import org.braid.matchmaking.ClassAd;
import org.braid.predictors.Forecast;

/**
 * One replica's storage ad as the broker built it, before matching.
 *
 * @param replica the replica
 * @param ad its storage ad
 * @param forecast its bandwidth forecast ({@link Forecast.Status#INSUFFICIENT_HISTORY} when none)
 * @param source where the forecast came from ({@link RankedReplica#forecastSource()})
 * @param note what to know about its provider data, or null ({@link RankedReplica#discovery()})
 * @param forecastNote why the forecast was clamped, or null ({@link RankedReplica#forecastNote()})
 */
record ReplicaAd(
    Replica replica,
    ClassAd ad,
    Forecast forecast,
    String source,
    String note,
    String forecastNote) {
  ReplicaAd {
    Objects.requireNonNull(replica, "replica");
    Objects.requireNonNull(ad, "ad");
    Objects.requireNonNull(forecast, "forecast");
    Objects.requireNonNull(source, "source");
  }
}
