package org.braid.broker;

import static org.braid.infoprovider.TransferRecord.Operation.READ;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.AdAttributes.Stat;
import org.braid.matchmaking.ClassAd;
import org.braid.predictors.Forecast;

/**
 * Builds the storage ad of one replica (paper 003, section 2.3) from what its provider published,
 * this client's history, and the replica itself. Every attribute of the provider's chosen ad is
 * carried over (its bandwidth statistics and forecasts, {@code volume}, and the volume's {@code
 * AvailableSpace} and {@code TotalSpace} in bytes), except those the broker sets itself.
 */
final class AdBuilder {

  /** Attributes of the provider's ad that the broker sets itself. */
  private static final Set<String> OWN = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  static {
    OWN.addAll(
        List.of(
            AdAttributes.MY_TYPE, AdAttributes.HOSTNAME, AdAttributes.URL, "Requirements", "Rank"));
  }

  private AdBuilder() {}

  /** The volume space attributes a provider publishes per volume (bytes). */
  static final List<String> SPACE = List.of(AdAttributes.AVAILABLE_SPACE, AdAttributes.TOTAL_SPACE);

  /**
   * The chosen provider ad: the client's own peer if published, else the best-sampled one; with the
   * volume's {@link #SPACE} attributes taken from another ad of the same volume when the chosen one
   * lacks them (a provider publishes them in every ad of a volume, and in an ad of its own for a
   * volume without transfers).
   */
  static Map<String, Object> pick(List<Map<String, Object>> ads, String clientPeer) {
    Map<String, Object> best = null;
    long bestCount = -1;
    for (Map<String, Object> ad : ads) {
      if (clientPeer != null && clientPeer.equals(ad.get(AdAttributes.PEER))) {
        best = ad;
        break;
      }
      String transfers = AdAttributes.transfers(READ, SizeClass.ALL);
      long n = ad.get(transfers) instanceof Long ? (Long) ad.get(transfers) : 0;
      if (n > bestCount) {
        best = ad;
        bestCount = n;
      }
    }
    return best == null ? null : withSpace(best, ads);
  }

  private static Map<String, Object> withSpace(
      Map<String, Object> ad, List<Map<String, Object>> ads) {
    if (ad.containsKey(SPACE.get(0)) || ad.get(AdAttributes.VOLUME) == null) {
      return ad;
    }
    for (Map<String, Object> other : ads) {
      if (ad.get(AdAttributes.VOLUME).equals(other.get(AdAttributes.VOLUME))
          && other.get(SPACE.get(0)) instanceof Long) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(ad);
        for (String k : SPACE) {
          if (other.get(k) instanceof Long) {
            out.put(k, other.get(k));
          }
        }
        return out;
      }
    }
    return ad;
  }

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

  static ClassAd build(
      Replica r,
      ProviderAnswer answer,
      Map<String, Object> provAd,
      Forecast f,
      String source,
      int historyFlows) {
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
