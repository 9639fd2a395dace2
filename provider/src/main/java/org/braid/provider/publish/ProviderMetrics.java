package org.braid.provider.publish;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Supplier;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.wire.Endpoint;

/**
 * The provider's Prometheus metrics, with the official Prometheus Java client: counters for what
 * happens (transfers stored, bytes, log lines, rejected lines, probe runs and failures, HTTP
 * requests and refused connections, all since the daemon started), gauges for the levels the
 * current {@link Snapshot} holds ({@link SnapshotCollector}), {@code braid_build_info{version}},
 * and the client's process and JVM memory metrics ({@code process_cpu_seconds_total}, {@code
 * process_resident_memory_bytes}, {@code process_start_time_seconds}, ...). Each provider has its
 * own registry. Thread-safe.
 */
public final class ProviderMetrics {

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final ExpositionFormats formats = ExpositionFormats.init();
  private final Counter transfers;
  private final Counter bytes;
  private final Counter lines;
  private final Counter rejected;
  private final Counter logErrors;
  private final Counter probeRuns;
  private final Counter probeFailures;
  private final Counter requests;
  private final Counter refused;

  /**
   * Metrics over the snapshots {@code snapshot} supplies.
   *
   * @throws NullPointerException if snapshot is null
   */
  public ProviderMetrics(Supplier<Snapshot> snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    transfers =
        counter(
            "braid_provider_transfers",
            "Transfers read from the logs and stored, by endpoint (empty: host-level), volume,"
                + " operation and result (ok, failed).",
            "endpoint",
            "volume",
            "operation",
            "result");
    bytes =
        counter(
            "braid_provider_transferred_bytes",
            "Bytes moved by the successful transfers counted in braid_provider_transfers_total.",
            "endpoint",
            "volume",
            "operation");
    lines = counter("braid_provider_log_lines", "Lines read from each configured log.", "log");
    rejected =
        counter(
            "braid_provider_rejected_lines",
            "Malformed log lines, per log and reason.",
            "log",
            "reason");
    logErrors =
        counter(
            "braid_provider_log_read_errors",
            "Polls of a log that failed (the store, an I/O error); retried at the next poll.",
            "log");
    probeRuns = counter("braid_provider_probe_runs", "Probe measurements attempted.", "probe");
    probeFailures =
        counter("braid_provider_probe_failures", "Probe measurements that failed.", "probe");
    requests =
        counter(
            "braid_provider_http_requests",
            "HTTP requests answered, by path (/v1/series/{name} for any series) and status.",
            "path",
            "code");
    refused =
        counter(
            "braid_provider_http_closed_connections",
            "Connections the HTTP server closed early: head_timeout (request head not complete"
                + " in time), request_timeout (body or answer not done in time), evicted (the"
                + " slowest waiting head, to make room), overload (over the limit, answered 503).",
            "reason");
    Info build =
        Info.builder()
            .name("braid_build_info")
            .help("The Braid version this provider runs.")
            .labelNames("version")
            .register(registry);
    build.setLabelValues(version());
    ProcessMetrics.builder().register(registry);
    JvmMemoryMetrics.builder().register(registry);
    registry.register(new SnapshotCollector(snapshot));
  }

  private Counter counter(String name, String help, String... labels) {
    return Counter.builder()
        .name(name)
        .help(help)
        .labelNames(labels)
        .withoutExemplars()
        .register(registry);
  }

  /** The version from the build ({@code version.properties}), or "dev". */
  static String version() {
    try (InputStream in = ProviderMetrics.class.getResourceAsStream("/braid-version.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "");
        if (!v.isBlank() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // a build without the file: "dev"
    }
    return "dev";
  }

  /** Counts a transfer newly stored from a log of {@code endpoint} (null: host-level). */
  public void transferStored(Endpoint endpoint, TransferRecord r) {
    String e = endpoint == null ? "" : endpoint.url();
    String op = r.operation().label();
    boolean ok = r.succeeded();
    transfers.labelValues(e, r.volume(), op, ok ? "ok" : "failed").inc();
    if (ok) {
      bytes.labelValues(e, r.volume(), op).inc(r.size());
    }
  }

  /** Counts what one poll of a log read. */
  public void logPolled(String log, ParseReport r) {
    if (r.lines() > 0) {
      lines.labelValues(log).inc(r.lines());
    }
    for (Map.Entry<String, Long> e : r.rejectedByReason().entrySet()) {
      rejected.labelValues(log, e.getKey()).inc(e.getValue());
    }
  }

  /** Counts a failed poll of a log. */
  public void logFailed(String log) {
    logErrors.labelValues(log).inc();
  }

  /** Counts one run of a probe. */
  public void probeRun(String probe, boolean ok) {
    probeRuns.labelValues(probe).inc();
    if (!ok) {
      probeFailures.labelValues(probe).inc();
    }
  }

  /** Counts an answered request; {@code route} is one of the router's paths or "other". */
  void request(String route, int status) {
    requests.labelValues(route, Integer.toString(status)).inc();
  }

  /** Counts a connection closed early, for {@code reason}. */
  void closed(String reason) {
    refused.labelValues(reason).inc();
  }

  /**
   * The metrics in the format the {@code Accept} header asks for (OpenMetrics or the Prometheus
   * text format 0.0.4; protocol buffers are not offered).
   *
   * @param accept the request's Accept header, or null
   */
  public Exposition scrape(String accept) {
    ExpositionFormatWriter w = formats.findWriter(accept);
    if (!w.isAvailable()) {
      w = formats.getPrometheusTextFormatWriter();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(16_384);
    try {
      w.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return new Exposition(out.toByteArray(), w.getContentType());
  }

  /** The metrics as the Prometheus text format 0.0.4 (tests, debugging). */
  public String text() {
    return new String(scrape(null).body(), StandardCharsets.UTF_8);
  }

  /**
   * A rendered scrape.
   *
   * @param body the bytes
   * @param contentType their content type
   */
  public record Exposition(byte[] body, String contentType) {}
}
