package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus launcher: it scrapes a target on 127.0.0.1 and answers queries. */
class PrometheusServerTest {

  @TempDir Path dir;

  @Test
  void scrapesATarget_andAnswersQueries() throws Exception {
    PrometheusServer.binary();
    HttpServer target =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] body =
        "# TYPE test_events_total counter\ntest_events_total 42\n".getBytes(StandardCharsets.UTF_8);
    target.createContext(
        "/metrics",
        x -> {
          x.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          x.sendResponseHeaders(200, body.length);
          x.getResponseBody().write(body);
          x.close();
        });
    target.start();
    try (PrometheusServer prom =
        PrometheusServer.start(
            dir, "t", List.of(target.getAddress().getPort()), Duration.ofMillis(300))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      String answer = prom.query("test_events_total");
      while (!answer.contains("\"42\"") && System.nanoTime() < deadline) {
        Thread.sleep(200);
        answer = prom.query("test_events_total");
      }
      assertTrue(answer.contains("\"42\""), answer);
    } finally {
      target.stop(0);
    }
  }
}
