package org.braid.broker;

import static org.braid.infoprovider.TransferRecord.Operation.READ;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.AdAttributes.Stat;
import org.braid.matchmaking.ClassAd;
import org.braid.predictors.Forecast;

/**
 * Builds the storage ad of one replica (paper 003, section 2.3) from what its provider published,
 * this client's history, and the replica itself. Every attribute of the provider's chosen ad is
 * carried over (its bandwidth statistics and forecasts, {@code volume}, its endpoint, and the
 * volume's {@code AvailableSpace} and {@code TotalSpace} in bytes), except those the broker sets
 * itself. The provider ad is chosen by {@link ProviderAdChoice}.
 */
final class AdBuilder {

  /** Attributes of the provider's ad that the broker sets itself. */
  private static final Set<String> OWN = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  static {
    OWN.addAll(
        List.of(
            AdAttributes.MY_TYPE, AdAttributes.HOSTNAME, AdAttributes.URL, "Requirements", "Rank"));
  }

  /**
   * How the provider ad relates to the replica: {@code endpoint}, {@code named-provider} or {@code
   * host} ({@link ProviderAdChoice.Scope}); undefined without a provider ad.
   */
  static final String STATISTICS_SCOPE = "StatisticsScope";

  private AdBuilder() {}

  /**
   * The provider's forecast for the size class, else its overall one, else its average; or null.
   */
  static Forecast providerForecast(Map<String, Object> ad, SizeClass sc) {
    if (ad == null) {
      return null;
    }
    for (SizeClass c : List.of(sc, SizeClass.ALL)) {
      Double v = num(ad, AdAttributes.predicted(READ, c));
      if (v != null && v > 0) {
        double err = orZero(num(ad, AdAttributes.predictedErrorPct(READ, c)));
        double ci = orZero(num(ad, AdAttributes.predictedConfidencePct(READ, c)));
        int n = (int) Math.min(Integer.MAX_VALUE, orZero(num(ad, AdAttributes.transfers(READ, c))));
        return new Forecast("provider", v, err, ci, n, n, "provider", Forecast.Status.OK);
      }
    }
    for (SizeClass c : List.of(sc, SizeClass.ALL)) {
      String avg = AdAttributes.bandwidth(Stat.AVG, READ, c);
      Double v = num(ad, avg);
      if (v != null && v > 0) {
        int n = (int) Math.min(Integer.MAX_VALUE, orZero(num(ad, AdAttributes.transfers(READ, c))));
        return new Forecast(avg, v, 0, 0, n, 0, avg, Forecast.Status.OK);
      }
    }
    return null;
  }

  static Double num(Map<String, Object> ad, String name) {
    Object o = ad.get(name);
    return o instanceof Number ? ((Number) o).doubleValue() : null;
  }

  private static double orZero(Double d) {
    return d == null ? 0 : d;
  }

  /**
   * The storage ad of a replica.
   *
   * @param answer its provider's answer, or null when it has no provider
   * @param choice the provider ad chosen for it
   * @param f the forecast, or null
   * @param source where the forecast came from ({@link RankedReplica#forecastSource()})
   * @param historyFlows this client's flows with the replica's endpoint
   */
  static ClassAd build(
      Replica r,
      ProviderAnswer answer,
      ProviderAdChoice choice,
      Forecast f,
      String source,
      int historyFlows) {
    Map<String, Object> provAd = choice.ad();
    ClassAd.Builder b = ClassAd.builder();
    b.set(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    b.set("hostname", r.host());
    b.set("url", r.uri().toString());
    b.set("protocol", r.uri().getScheme().toLowerCase(Locale.ROOT));
    if (r.port() >= 0) {
      b.set("port", (long) r.port());
    }
    b.set("priority", (long) r.priority());
    if (!r.location().isEmpty()) {
      b.set("location", r.location());
    }
    if (answer != null) {
      b.set("provider", answer.endpoint().toString());
      if (answer.ok()) {
        b.set("RTT", answer.rtt().toNanos() / 1e9);
        answer.loads().forEach((k, v) -> b.set(k, (double) v));
      }
    }
    if (provAd != null) {
      b.set(STATISTICS_SCOPE, choice.scope().label());
      for (Map.Entry<String, Object> e : provAd.entrySet()) {
        String k = e.getKey();
        if (OWN.contains(k)) {
          if (k.equalsIgnoreCase("hostname") || k.equalsIgnoreCase("url")) {
            b.set(
                "provider" + Character.toUpperCase(k.charAt(0)) + k.substring(1),
                e.getValue().toString());
          }
          continue;
        }
        Object v = e.getValue();
        if (v instanceof Long) {
          b.set(k, (long) (Long) v);
        } else if (v instanceof Double) {
          b.set(k, (double) (Double) v);
        } else {
          b.set(k, v.toString());
        }
      }
    }
    if (historyFlows > 0) {
      b.set("HistoryTransfers", (long) historyFlows);
    }
    if (f != null && f.isAvailable()) {
      b.set("PredictedBandwidth", f.value());
      if (f.scored() > 0) {
        b.set("PredictionError", f.errorPct());
        b.set("PredictionConfidence", f.ciPct());
        b.set("PredictionLow", f.low());
        b.set("PredictionHigh", f.high());
      }
    }
    b.set("PredictionSource", source);
    b.set("Requirements", true);
    return b.build();
  }
}
