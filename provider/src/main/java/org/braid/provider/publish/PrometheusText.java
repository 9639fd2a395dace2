package org.braid.provider.publish;

import java.util.Map;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;

/**
 * The statistics in the Prometheus text exposition format (version 0.0.4). Transfer metrics carry
 * the labels {@code volume}, {@code peer}, {@code operation}, {@code size_class} and, for an
 * endpoint's statistics, {@code endpoint} (its URL); host-level statistics have no {@code endpoint}
 * label.
 */
public final class PrometheusText {

  /** The content type of the format. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private PrometheusText() {}

  /** Renders a snapshot. */
  public static String render(Snapshot snap) {
    StringBuilder sb = new StringBuilder(4096);
    header(sb, "braid_provider_transfers", "Successful transfers in the retention window.");
    for (ScopedStats s : snap.stats()) {
      line(sb, "braid_provider_transfers", labels(s), s.stats().count());
    }
    header(sb, "braid_provider_failed_transfers", "Failed transfers in the retention window.");
    for (ScopedStats s : snap.stats()) {
      line(sb, "braid_provider_failed_transfers", labels(s), s.stats().failed());
    }
    header(
        sb, "braid_provider_bytes", "Bytes moved by successful transfers in the retention window.");
    for (ScopedStats s : snap.stats()) {
      line(sb, "braid_provider_bytes", labels(s), s.stats().bytes());
    }
    header(
        sb,
        "braid_provider_bandwidth_bytes_per_second",
        "Transfer bandwidth statistics (stat = min, max, mean, stddev, median, last).");
    for (ScopedStats s : snap.stats()) {
      String l = labels(s);
      bandwidths(sb, l, s.stats());
    }
    header(
        sb, "braid_provider_forecast_bytes_per_second", "Forecast bandwidth of the next transfer.");
    header(
        sb,
        "braid_provider_forecast_error_percent",
        "Average past normalized error of the forecast.");
    header(
        sb, "braid_provider_forecast_confidence_percent", "95% confidence interval of that error.");
    for (ScopedStats s : snap.stats()) {
      Forecast f = s.stats().forecast();
      if (f != null && f.isAvailable()) {
        String l = labels(s) + ",predictor=\"" + esc(f.chosen()) + "\"";
        line(sb, "braid_provider_forecast_bytes_per_second", l, f.value());
        line(sb, "braid_provider_forecast_error_percent", l, f.errorPct());
        line(sb, "braid_provider_forecast_confidence_percent", l, f.ciPct());
      }
    }
    header(sb, "braid_provider_rejected_lines", "Malformed log lines, per log and reason.");
    for (Map.Entry<String, Map<String, Long>> e : snap.rejections().entrySet()) {
      for (Map.Entry<String, Long> r : e.getValue().entrySet()) {
        line(
            sb,
            "braid_provider_rejected_lines",
            "log=\"" + esc(e.getKey()) + "\",reason=\"" + esc(r.getKey()) + "\"",
            r.getValue());
      }
    }
    header(
        sb, "braid_provider_log_missing", "1 when a configured log was missing at the last poll.");
    for (Map.Entry<String, Boolean> e : snap.missingLogs().entrySet()) {
      line(
          sb,
          "braid_provider_log_missing",
          "log=\"" + esc(e.getKey()) + "\"",
          e.getValue() ? 1 : 0);
    }
    header(
        sb,
        "braid_provider_volume_available_bytes",
        "Usable space of each configured volume's file store.");
    for (VolumeSpace v : snap.volumes().values()) {
      line(
          sb,
          "braid_provider_volume_available_bytes",
          "volume=\"" + esc(v.volume()) + "\"",
          v.available());
    }
    header(
        sb,
        "braid_provider_volume_total_bytes",
        "Total space of each configured volume's file store.");
    for (VolumeSpace v : snap.volumes().values()) {
      line(
          sb, "braid_provider_volume_total_bytes", "volume=\"" + esc(v.volume()) + "\"", v.total());
    }
    header(sb, "braid_provider_probe_value", "Latest value of each probe series.");
    for (Map.Entry<String, Point> e : snap.lastSamples().entrySet()) {
      line(
          sb,
          "braid_provider_probe_value",
          "series=\"" + esc(e.getKey()) + "\"",
          e.getValue().value());
    }
    return sb.toString();
  }

  private static void bandwidths(StringBuilder sb, String l, TransferStats s) {
    String name = "braid_provider_bandwidth_bytes_per_second";
    line(sb, name, l + ",stat=\"min\"", s.minBandwidth());
    line(sb, name, l + ",stat=\"max\"", s.maxBandwidth());
    line(sb, name, l + ",stat=\"mean\"", s.meanBandwidth());
    line(sb, name, l + ",stat=\"stddev\"", s.stddevBandwidth());
    line(sb, name, l + ",stat=\"median\"", s.medianBandwidth());
    line(sb, name, l + ",stat=\"last\"", s.lastBandwidth());
  }

  private static String labels(ScopedStats scoped) {
    TransferStats s = scoped.stats();
    String endpoint =
        scoped.endpoint() == null ? "" : ",endpoint=\"" + esc(scoped.endpoint().url()) + "\"";
    return "volume=\""
        + esc(s.key().volume())
        + "\",peer=\""
        + esc(s.key().peer())
        + "\",operation=\""
        + s.key().operation().label()
        + "\",size_class=\""
        + s.key().sizeClass().label()
        + "\""
        + endpoint;
  }

  private static void header(StringBuilder sb, String name, String help) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(" gauge\n");
  }

  private static void line(StringBuilder sb, String name, String labels, double v) {
    sb.append(name).append('{').append(labels).append("} ");
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      sb.append((long) v);
    } else {
      sb.append(v);
    }
    sb.append('\n');
  }

  private static void line(StringBuilder sb, String name, String labels, long v) {
    sb.append(name).append('{').append(labels).append("} ").append(v).append('\n');
  }

  static String esc(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
