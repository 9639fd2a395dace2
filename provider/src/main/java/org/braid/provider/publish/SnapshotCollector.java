package org.braid.provider.publish;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;

/**
 * The levels of the current {@link Snapshot} as gauges, built at each scrape. Statistics carry the
 * labels {@code endpoint} (its URL, empty for host-level statistics), {@code volume}, {@code peer},
 * {@code operation} and {@code size_class}; the forecast's chosen predictor is not a label of the
 * forecast (it would change the series when the choice changes) but of its own info metric, {@code
 * braid_provider_forecast_predictor_info}. Probe series are split by unit: percent, bytes per
 * second and seconds never share a metric.
 */
final class SnapshotCollector implements MultiCollector {

  private static final String[] STATS = {"endpoint", "volume", "peer", "operation", "size_class"};

  /** A probe series name, its metric, its label, and the factor to the metric's unit. */
  private record ProbeMetric(Pattern series, String name, String help, String label, double k) {}

  private static final List<ProbeMetric> PROBES =
      List.of(
          new ProbeMetric(
              Pattern.compile("disk/(.+)/util_percent"),
              "braid_provider_disk_utilization_percent",
              "Share of time the device was busy with I/O, latest probe, percent.",
              "device",
              1),
          new ProbeMetric(
              Pattern.compile("disk/(.+)/mb_per_second"),
              "braid_provider_disk_throughput_bytes_per_second",
              "Bytes read and written per second on the device, latest probe.",
              "device",
              1e6),
          new ProbeMetric(
              Pattern.compile("network/(.+)/bandwidth"),
              "braid_provider_network_probe_bandwidth_bytes_per_second",
              "Bandwidth of the latest 64 KiB probe download from the peer.",
              "peer",
              1),
          new ProbeMetric(
              Pattern.compile("network/(.+)/connect_seconds"),
              "braid_provider_network_probe_connect_seconds",
              "TCP connect time to the peer, latest probe.",
              "peer",
              1),
          new ProbeMetric(
              Pattern.compile("network/(.+)/iperf_bandwidth"),
              "braid_provider_iperf_bandwidth_bytes_per_second",
              "Bandwidth of the latest imported iperf3 result.",
              "host",
              1));

  private final Supplier<Snapshot> snapshot;

  SnapshotCollector(Supplier<Snapshot> snapshot) {
    this.snapshot = snapshot;
  }

  @Override
  public MetricSnapshots collect() {
    Snapshot snap = snapshot.get();
    Map<String, GaugeSnapshot.Builder> g = new LinkedHashMap<>();
    gauge(g, "braid_provider_window_transfers", "Successful transfers in the retention window.");
    gauge(g, "braid_provider_window_failed_transfers", "Failed transfers in the retention window.");
    gauge(
        g,
        "braid_provider_window_bytes",
        "Bytes moved by the successful transfers in the retention window.");
    gauge(
        g,
        "braid_provider_bandwidth_bytes_per_second",
        "Transfer bandwidth statistics in the retention window (stat = min, max, mean, stddev,"
            + " median, last).");
    gauge(
        g, "braid_provider_forecast_bytes_per_second", "Forecast bandwidth of the next transfer.");
    gauge(
        g,
        "braid_provider_forecast_error_percent",
        "Average past normalized error of the forecast, percent.");
    gauge(
        g,
        "braid_provider_forecast_confidence_percent",
        "95% confidence interval of the forecast's error, percent.");
    InfoSnapshot.Builder predictor =
        InfoSnapshot.builder()
            .name("braid_provider_forecast_predictor")
            .help("The predictor that made each forecast (value 1).");
    for (ScopedStats s : snap.stats()) {
      TransferStats t = s.stats();
      Labels l =
          Labels.of(
              STATS,
              new String[] {
                s.endpointUrl(),
                t.key().volume(),
                t.key().peer(),
                t.key().operation().label(),
                t.key().sizeClass().label()
              });
      point(g, "braid_provider_window_transfers", l, t.count());
      point(g, "braid_provider_window_failed_transfers", l, t.failed());
      point(g, "braid_provider_window_bytes", l, t.bytes());
      String bw = "braid_provider_bandwidth_bytes_per_second";
      point(g, bw, l.add("stat", "min"), t.minBandwidth());
      point(g, bw, l.add("stat", "max"), t.maxBandwidth());
      point(g, bw, l.add("stat", "mean"), t.meanBandwidth());
      point(g, bw, l.add("stat", "stddev"), t.stddevBandwidth());
      point(g, bw, l.add("stat", "median"), t.medianBandwidth());
      point(g, bw, l.add("stat", "last"), t.lastBandwidth());
      Forecast f = t.forecast();
      if (f != null && f.isAvailable()) {
        point(g, "braid_provider_forecast_bytes_per_second", l, f.value());
        point(g, "braid_provider_forecast_error_percent", l, f.errorPct());
        point(g, "braid_provider_forecast_confidence_percent", l, f.ciPct());
        predictor.dataPoint(
            InfoSnapshot.InfoDataPointSnapshot.builder()
                .labels(l.add("predictor", f.chosen() == null ? "" : f.chosen()))
                .build());
      }
    }
    gauge(
        g,
        "braid_provider_log_missing",
        "1 while a configured log is missing (checked at every poll), else 0.");
    for (Map.Entry<String, Boolean> e : snap.missingLogs().entrySet()) {
      point(g, "braid_provider_log_missing", Labels.of("log", e.getKey()), e.getValue() ? 1 : 0);
    }
    gauge(g, "braid_provider_volume_available_bytes", "Usable space of each configured volume.");
    gauge(g, "braid_provider_volume_total_bytes", "Total space of each configured volume.");
    for (VolumeSpace v : snap.volumes().values()) {
      Labels l = Labels.of("volume", v.volume());
      point(g, "braid_provider_volume_available_bytes", l, v.available());
      point(g, "braid_provider_volume_total_bytes", l, v.total());
    }
    for (ProbeMetric m : PROBES) {
      gauge(g, m.name(), m.help());
    }
    for (Map.Entry<String, Point> e : snap.lastSamples().entrySet()) {
      for (ProbeMetric m : PROBES) {
        Matcher x = m.series().matcher(e.getKey());
        if (x.matches()) {
          point(g, m.name(), Labels.of(m.label(), x.group(1)), e.getValue().value() * m.k());
          break;
        }
      }
    }
    gauge(
        g,
        "braid_provider_statistics_timestamp_seconds",
        "When the published statistics were computed, Unix time.");
    point(
        g,
        "braid_provider_statistics_timestamp_seconds",
        Labels.EMPTY,
        snap.computedAt().toEpochMilli() / 1000.0);
    List<MetricSnapshot> out = new ArrayList<>();
    for (GaugeSnapshot.Builder b : g.values()) {
      out.add(b.build());
    }
    out.add(predictor.build());
    return new MetricSnapshots(out);
  }

  private static void gauge(Map<String, GaugeSnapshot.Builder> g, String name, String help) {
    g.put(name, GaugeSnapshot.builder().name(name).help(help));
  }

  private static void point(
      Map<String, GaugeSnapshot.Builder> g, String name, Labels labels, double v) {
    if (Double.isFinite(v)) {
      g.get(name)
          .dataPoint(
              GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(v).build());
    }
  }
}
