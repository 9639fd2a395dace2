package org.braid.infoprovider.publish;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.predictors.Forecast;

/**
 * Storage ads (paper 003, sections 2.3-2.4): one ad per (volume, peer) with the attributes a broker
 * ranks on, in bytes per second: {@code MinRDBandwidth}, {@code MaxRDBandwidth}, {@code
 * AvgRDBandwidth}, {@code StdRDBandwidth}, {@code MedRDBandwidth}, {@code LastRDBandwidth}, {@code
 * RDTransfers}, the per-size-class {@code AvgRDBandwidth10M}, {@code ...100M}, {@code ...500M},
 * {@code ...1G}, the write side with {@code WR} in place of {@code RD}, and when a forecast is
 * available {@code PredRDBandwidth}, {@code PredRDErrorPct}, {@code PredRDConfidencePct} (and per
 * size class, e.g. {@code PredRDBandwidth10M}). Also {@code hostname}, {@code volume}, {@code
 * peer}, {@code url}, and for a volume with a configured data directory {@code AvailableSpace} and
 * {@code TotalSpace} in bytes; such a volume without transfers gets an ad of its own without {@code
 * peer}.
 */
public final class StorageAds {

  private StorageAds() {}

  /** The ads as ordered attribute maps (values are String, Long or Double). */
  public static List<Map<String, Object>> ads(Snapshot snap, String peerFilter) {
    Map<String, Map<String, Object>> byVolumePeer = new LinkedHashMap<>();
    for (TransferStats s : snap.stats()) {
      if (peerFilter != null && !peerFilter.equals(s.key().peer())) {
        continue;
      }
      Map<String, Object> ad =
          byVolumePeer.computeIfAbsent(
              s.key().volume() + "\u0000" + s.key().peer(),
              k -> header(snap, s.key().volume(), s.key().peer()));
      String op = s.key().operation() == Operation.READ ? "RD" : "WR";
      String suffix = s.key().sizeClass().adSuffix();
      if (s.key().sizeClass() == SizeClass.ALL) {
        ad.put("Min" + op + "Bandwidth", s.minBandwidth());
        ad.put("Max" + op + "Bandwidth", s.maxBandwidth());
        ad.put("Avg" + op + "Bandwidth", s.meanBandwidth());
        ad.put("Std" + op + "Bandwidth", s.stddevBandwidth());
        ad.put("Med" + op + "Bandwidth", s.medianBandwidth());
        ad.put("Last" + op + "Bandwidth", s.lastBandwidth());
        ad.put(op + "Transfers", s.count());
      } else {
        ad.put("Avg" + op + "Bandwidth" + suffix, s.meanBandwidth());
        ad.put(op + "Transfers" + suffix, s.count());
      }
      Forecast f = s.forecast();
      if (f != null && f.isAvailable()) {
        ad.put("Pred" + op + "Bandwidth" + suffix, f.value());
        ad.put("Pred" + op + "ErrorPct" + suffix, f.errorPct());
        ad.put("Pred" + op + "ConfidencePct" + suffix, f.ciPct());
      }
    }
    java.util.Set<String> withAds = new java.util.HashSet<>();
    for (Map<String, Object> ad : byVolumePeer.values()) {
      String volume = (String) ad.get("volume");
      withAds.add(volume);
      space(ad, snap.volumes().get(volume));
    }
    List<Map<String, Object>> out = new ArrayList<>(byVolumePeer.values());
    for (VolumeSpace v : snap.volumes().values()) {
      if (!withAds.contains(v.volume())) {
        Map<String, Object> a = header(snap, v.volume(), null);
        space(a, v);
        out.add(a);
      }
    }
    return out;
  }

  /** An ad's leading attributes; {@code peer} null for a volume's ad without transfers. */
  private static Map<String, Object> header(Snapshot snap, String volume, String peer) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("MyType", "Storage");
    a.put("hostname", snap.hostname());
    a.put("volume", volume);
    if (peer != null) {
      a.put("peer", peer);
    }
    if (!snap.url().isEmpty()) {
      a.put("url", snap.url());
    }
    return a;
  }

  private static void space(Map<String, Object> ad, VolumeSpace v) {
    if (v != null) {
      ad.put("AvailableSpace", v.available());
      ad.put("TotalSpace", v.total());
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

  /** JSON: an array of objects with the same attribute names. */
  public static ArrayNode json(Snapshot snap, String peerFilter) {
    ArrayNode a = StatsJson.MAPPER.createArrayNode();
    for (Map<String, Object> ad : ads(snap, peerFilter)) {
      ObjectNode o = a.addObject();
      for (Map.Entry<String, Object> e : ad.entrySet()) {
        Object v = e.getValue();
        if (v instanceof Double) {
          o.put(e.getKey(), (Double) v);
        } else if (v instanceof Long) {
          o.put(e.getKey(), (Long) v);
        } else {
          o.put(e.getKey(), v.toString());
        }
      }
    }
    return a;
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
