package org.braid.provider.publish;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.AdAttributes.Stat;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;

/**
 * Storage ads (paper 003, sections 2.3-2.4): one ad per (endpoint, volume, peer) with the
 * attributes a broker ranks on, in bytes per second: {@code MinRDBandwidth}, {@code
 * MaxRDBandwidth}, {@code AvgRDBandwidth}, {@code StdRDBandwidth}, {@code MedRDBandwidth}, {@code
 * LastRDBandwidth}, {@code RDTransfers}, the per-size-class {@code AvgRDBandwidth10M}, {@code
 * ...100M}, {@code ...500M}, {@code ...1G}, the write side with {@code WR} in place of {@code RD},
 * and when a forecast is available {@code PredRDBandwidth}, {@code PredRDErrorPct}, {@code
 * PredRDConfidencePct} (and per size class, e.g. {@code PredRDBandwidth10M}). Also {@code
 * hostname}, {@code volume}, {@code peer}, for an endpoint's statistics its {@code url} and parts
 * ({@link AdAttributes#putEndpoint}; host-level statistics have none), and for a volume with a
 * configured data directory {@code AvailableSpace} and {@code TotalSpace} in bytes; such a volume
 * without transfers gets an ad of its own without {@code peer} and without an endpoint.
 */
public final class StorageAds {

  private StorageAds() {}

  /** The ads as ordered attribute maps (values are String, Long or Double). */
  public static List<Map<String, Object>> ads(Snapshot snap, String peerFilter) {
    Map<AdKey, Map<String, Object>> byScope = new LinkedHashMap<>();
    for (ScopedStats scoped : snap.stats()) {
      TransferStats s = scoped.stats();
      if (peerFilter != null && !peerFilter.equals(s.key().peer())) {
        continue;
      }
      Map<String, Object> ad =
          byScope.computeIfAbsent(
              new AdKey(scoped.endpoint(), s.key().volume(), s.key().peer()),
              k -> header(snap, k.endpoint(), k.volume(), k.peer()));
      Operation op = s.key().operation();
      SizeClass sc = s.key().sizeClass();
      if (sc == SizeClass.ALL) {
        ad.put(AdAttributes.bandwidth(Stat.MIN, op, sc), s.minBandwidth());
        ad.put(AdAttributes.bandwidth(Stat.MAX, op, sc), s.maxBandwidth());
        ad.put(AdAttributes.bandwidth(Stat.AVG, op, sc), s.meanBandwidth());
        ad.put(AdAttributes.bandwidth(Stat.STD, op, sc), s.stddevBandwidth());
        ad.put(AdAttributes.bandwidth(Stat.MED, op, sc), s.medianBandwidth());
        ad.put(AdAttributes.bandwidth(Stat.LAST, op, sc), s.lastBandwidth());
      } else {
        ad.put(AdAttributes.bandwidth(Stat.AVG, op, sc), s.meanBandwidth());
      }
      ad.put(AdAttributes.transfers(op, sc), s.count());
      Forecast f = s.forecast();
      if (f != null && f.isAvailable()) {
        ad.put(AdAttributes.predicted(op, sc), f.value());
        ad.put(AdAttributes.predictedErrorPct(op, sc), f.errorPct());
        ad.put(AdAttributes.predictedConfidencePct(op, sc), f.ciPct());
      }
    }
    Set<String> withAds = new HashSet<>();
    for (Map<String, Object> ad : byScope.values()) {
      String volume = (String) ad.get(AdAttributes.VOLUME);
      withAds.add(volume);
      space(ad, snap.volumes().get(volume));
    }
    List<Map<String, Object>> out = new ArrayList<>(byScope.values());
    for (VolumeSpace v : snap.volumes().values()) {
      if (!withAds.contains(v.volume())) {
        Map<String, Object> a = header(snap, null, v.volume(), null);
        space(a, v);
        out.add(a);
      }
    }
    return out;
  }

  /** What one ad is about; endpoint null for host-level statistics. */
  private record AdKey(Endpoint endpoint, String volume, String peer) {}

  /**
   * An ad's leading attributes; {@code endpoint} null for host-level statistics, {@code peer} null
   * for a volume's ad without transfers.
   */
  private static Map<String, Object> header(
      Snapshot snap, Endpoint endpoint, String volume, String peer) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    a.put(AdAttributes.HOSTNAME, snap.hostname());
    a.put(AdAttributes.VOLUME, volume);
    if (peer != null) {
      a.put(AdAttributes.PEER, peer);
    }
    if (endpoint != null) {
      AdAttributes.putEndpoint(a, endpoint);
    }
    return a;
  }

  private static void space(Map<String, Object> ad, VolumeSpace v) {
    if (v != null) {
      ad.put(AdAttributes.AVAILABLE_SPACE, v.available());
      ad.put(AdAttributes.TOTAL_SPACE, v.total());
    }
  }

  /** ClassAd text: each ad as {@code [ name = value; ... ]}, separated by a blank line. */
  public static String classAds(Snapshot snap, String peerFilter) {
    StringBuilder sb = new StringBuilder();
    for (Map<String, Object> ad : ads(snap, peerFilter)) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append("[\n");
      for (Map.Entry<String, Object> e : ad.entrySet()) {
        sb.append("  ")
            .append(e.getKey())
            .append(" = ")
            .append(literal(e.getValue()))
            .append(";\n");
      }
      sb.append("]\n");
    }
    return sb.toString();
  }

  /** JSON: an array of objects with the same attribute names ({@link AdsJson}). */
  public static String json(Snapshot snap, String peerFilter) {
    return AdsJson.write(ads(snap, peerFilter));
  }

  private static String literal(Object v) {
    if (v instanceof Double) {
      return String.format(Locale.ROOT, "%.3f", (Double) v);
    }
    if (v instanceof Long) {
      return v.toString();
    }
    StringBuilder sb = new StringBuilder("\"");
    for (char c : v.toString().toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append('"').toString();
  }
}
