package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A real Prometheus on 127.0.0.1 scraping the given targets (also on 127.0.0.1) at a short
 * interval, with its configuration and a throwaway storage directory in {@code dir}. {@link #query}
 * asks its HTTP API.
 *
 * <pre>{@code
 * try (PrometheusServer prom = PrometheusServer.start(dir, "braid", List.of(port), ofSeconds(1))) {
 *   String json = prom.query("rate(braid_provider_transfers_total[10s])");
 * }
 * }</pre>
 *
 * <p>Missing prometheus: see {@link RealComponent} (Debian package {@value #DEBIAN_PACKAGE}, which
 * also installs {@link #promtool()}).
 */
public final class PrometheusServer implements AutoCloseable {

  /** The Debian package that installs prometheus and promtool. */
  public static final String DEBIAN_PACKAGE = "prometheus";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final ServerProcess process;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private PrometheusServer(ServerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The prometheus executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path binary() {
    return RealComponent.executable("prometheus", DEBIAN_PACKAGE);
  }

  /** The promtool executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path promtool() {
    return RealComponent.executable("promtool", DEBIAN_PACKAGE);
  }

  /**
   * Starts Prometheus scraping {@code http://127.0.0.1:PORT/metrics} of each port as job {@code
   * job}, every {@code interval}, and waits until its web API listens.
   */
  public static PrometheusServer start(Path dir, String job, List<Integer> ports, Duration interval)
      throws IOException {
    Objects.requireNonNull(job, "job");
    Path bin = binary();
    Files.createDirectories(dir);
    long ms = Math.max(100, interval.toMillis());
    StringBuilder targets = new StringBuilder();
    for (int p : ports) {
      targets
          .append(targets.length() == 0 ? "" : ", ")
          .append("'127.0.0.1:")
          .append(p)
          .append('\'');
    }
    String yml =
        String.join(
            "\n",
            "global:",
            "  scrape_interval: " + ms + "ms",
            "  scrape_timeout: " + ms + "ms",
            "  evaluation_interval: " + ms + "ms",
            "scrape_configs:",
            "  - job_name: '" + job + "'",
            "    static_configs:",
            "      - targets: [" + targets + "]",
            "");
    Path conf = dir.resolve("prometheus.yml");
    Files.writeString(conf, yml);
    int port = Loopback.freePort();
    ServerProcess p =
        ServerProcess.start(
            "prometheus",
            List.of(
                bin.toString(),
                "--config.file=" + conf,
                "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("data")),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"),
            dir.resolve("prometheus.out"),
            List.of(port),
            conf);
    PrometheusServer prom = new PrometheusServer(p, port);
    try {
      prom.awaitReady(READY_TIMEOUT);
    } catch (RuntimeException | IOException e) {
      prom.close();
      throw e;
    }
    return prom;
  }

  /**
   * Waits until {@code /-/ready} answers 200: the web API listens before the storage is open, and
   * answers 503 until then.
   */
  private void awaitReady(Duration timeout) throws IOException {
    URI u = URI.create("http://127.0.0.1:" + port + "/-/ready");
    long deadline = System.nanoTime() + timeout.toNanos();
    int last = -1;
    while (System.nanoTime() < deadline) {
      try {
        last =
            http.send(
                    HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode();
        if (last == 200) {
          return;
        }
      } catch (IOException e) {
        last = -1; // not answering yet: try again
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for prometheus to be ready", e);
      }
      try {
        Thread.sleep(100); // polling /-/ready while the storage opens
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for prometheus to be ready", e);
      }
    }
    throw new IOException(
        "prometheus on 127.0.0.1:"
            + port
            + " not ready after "
            + timeout
            + " (last status "
            + last
            + ")");
  }

  /** The port of Prometheus' web UI and API on 127.0.0.1. */
  public int port() {
    return port;
  }

  /**
   * An instant query through {@code /api/v1/query}.
   *
   * @return the JSON answer (status 200 required)
   */
  public String query(String promql) {
    URI u =
        URI.create(
            "http://127.0.0.1:"
                + port
                + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), "prometheus query " + promql + ": " + r.body());
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException("prometheus query " + promql, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted querying prometheus", e);
    }
  }

  @Override
  public void close() {
    process.close();
  }
}
