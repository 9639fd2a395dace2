package org.braid.infoprovider.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.predictors.Forecast;

/** JSON form of {@link TransferStats}: the field names used by /v1/stats and the CLI. */
public final class StatsJson {

  /** The shared mapper (thread-safe once configured). */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private StatsJson() {}

  /**
   * One statistics object: volume, peer, operation (read/write), sizeClass, count, failed, bytes,
   * minBandwidth, maxBandwidth, meanBandwidth, stddevBandwidth, medianBandwidth, lastBandwidth
   * (bytes per second), lastTime (ISO-8601), and when computed forecast {status (ok or
   * insufficient_history), predictor, chosen, value, errorPct, ciPct, history}.
   */
  public static ObjectNode of(TransferStats s) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("volume", s.key().volume());
    o.put("peer", s.key().peer());
    o.put("operation", s.key().operation().label());
    o.put("sizeClass", s.key().sizeClass().label());
    o.put("count", s.count());
    o.put("failed", s.failed());
    o.put("bytes", s.bytes());
    o.put("minBandwidth", s.minBandwidth());
    o.put("maxBandwidth", s.maxBandwidth());
    o.put("meanBandwidth", s.meanBandwidth());
    o.put("stddevBandwidth", s.stddevBandwidth());
    o.put("medianBandwidth", s.medianBandwidth());
    o.put("lastBandwidth", s.lastBandwidth());
    o.put("lastTime", s.lastTime().toString());
    Forecast f = s.forecast();
    if (f != null) {
      ObjectNode fo = o.putObject("forecast");
      fo.put("status", f.isAvailable() ? "ok" : "insufficient_history");
      fo.put("predictor", f.predictor());
      fo.put("chosen", f.chosen());
      fo.put("value", f.value());
      fo.put("errorPct", f.errorPct());
      fo.put("ciPct", f.ciPct());
      fo.put("history", f.history());
    }
    return o;
  }

  /**
   * The space of the configured volumes (all, or the one named by {@code volumeFilter}): an array
   * of {volume, dataDirectory, availableSpace, totalSpace} (bytes).
   */
  public static ArrayNode volumes(Snapshot snap, String volumeFilter) {
    ArrayNode a = MAPPER.createArrayNode();
    for (VolumeSpace v : snap.volumes().values()) {
      if (volumeFilter == null || volumeFilter.equals(v.volume())) {
        ObjectNode o = a.addObject();
        o.put("volume", v.volume());
        o.put("dataDirectory", v.dataDirectory().toString());
        o.put("availableSpace", v.available());
        o.put("totalSpace", v.total());
      }
    }
    return a;
  }

  /** An array of statistics objects. */
  public static ArrayNode of(List<TransferStats> stats) {
    ArrayNode a = MAPPER.createArrayNode();
    for (TransferStats s : stats) {
      a.add(of(s));
    }
    return a;
  }
}
