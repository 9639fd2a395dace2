package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.braid.testkit.PrometheusServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a real Prometheus (Debian's prometheus) scrapes a provider on 127.0.0.1 every 500 ms
 * while transfers are appended to the provider's log; the rate of the transfers counter, asked
 * through Prometheus' HTTP API, is above zero. The exposition also passes {@code promtool check
 * metrics}.
 */
class PrometheusSystemTest {

  @TempDir Path dir;

  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void prometheusScrapesTheProvider_rateOfTransfersAboveZero() throws Exception {
    PrometheusServer.binary();
    Path log = dir.resolve("access.log");
    Files.writeString(log, "");
    Path yaml =
        Files.writeString(
            dir.resolve("provider.yaml"),
            String.join(
                "\n",
                "hostname: se.example.org",
                "database: " + dir.resolve("provider.db"),
                "poll: 200ms",
                "http: {port: 0}",
                "logs:",
                "  - path: " + log,
                "    format: nginx",
                "    endpoint: http://127.0.0.1:18082/",
                ""));
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      p.start();
      try (PrometheusServer prom =
          PrometheusServer.start(
              dir.resolve("prometheus"), "braid", List.of(p.httpPort()), Duration.ofMillis(500))) {
        waitFor(prom, "up{job=\"braid\"} == 1", Duration.ofSeconds(30));
        String rate = "sum(rate(braid_provider_transfers_total{result=\"ok\"}[5s]))";
        double seen = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        int i = 0;
        while (seen <= 0 && System.nanoTime() < deadline) {
          // A transfer every 250 ms, as a busy server's log grows.
          Instant s = Instant.now().minusSeconds(2);
          Files.writeString(
              log,
              BrokerRankSystemTest.nginx(s, 10_000_000 + i++, 8e6, "127.0.0.1:18082"),
              StandardOpenOption.APPEND);
          Thread.sleep(250);
          seen = value(prom.query(rate));
        }
        assertTrue(seen > 0, "rate of transfers stayed " + seen + " after " + i + " transfers");
        double bytes = value(prom.query("sum(rate(braid_provider_transferred_bytes_total[5s]))"));
        assertTrue(bytes > 0, "bytes rate " + bytes);
        assertEquals(
            1.0,
            value(prom.query("count(braid_build_info{job=\"braid\"})")),
            "braid_build_info scraped");
        assertTrue(value(prom.query("process_start_time_seconds{job=\"braid\"}")) > 1.6e9);
      }
      // promtool's lint of the text exposition: clean.
      HttpResponse<String> m =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + p.httpPort() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertTrue(m.body().contains("braid_provider_transfers_total{"), m.body());
      Process check =
          new ProcessBuilder(PrometheusServer.promtool().toString(), "check", "metrics")
              .redirectErrorStream(true)
              .start();
      check.getOutputStream().write(m.body().getBytes(StandardCharsets.UTF_8));
      check.getOutputStream().close();
      String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(check.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, check.exitValue(), out);
      assertEquals("", out.trim(), "promtool check metrics");
    }
  }

  /** The value of an instant query's first sample, 0 when it has none. */
  static double value(String answer) throws Exception {
    JsonNode j = JSON.readTree(answer);
    assertEquals("success", j.get("status").asText(), answer);
    JsonNode r = j.get("data").get("result");
    return r.isEmpty() ? 0 : Double.parseDouble(r.get(0).get("value").get(1).asText());
  }

  static void waitFor(PrometheusServer prom, String query, Duration max) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (value(prom.query(query)) == 0) {
      assertTrue(System.nanoTime() < deadline, "no " + query + " within " + max);
      Thread.sleep(200);
    }
  }
}
