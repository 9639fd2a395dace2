package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hc.core5.http.config.Http1Config;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.stats.StatsAccumulator;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.infoprovider.wire.StatsJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ProviderHttpServerTest {

  static ProviderHttpServer server;
  static Snapshot snap;
  static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    StatsAccumulator acc = new StatsAccumulator();
    for (int i = 0; i < 20; i++) {
      acc.add(
          LogFormat.GRIDFTP
              .parser()
              .parse(TestLines.gridftp(i * 60, "10.0.0.1", 1_000_000 + i, 100 + i, "RETR")));
    }
    acc.add(
        LogFormat.GRIDFTP
            .parser()
            .parse(TestLines.gridftp(5000, "10.0.0.2", 100_000_000, 2000, "STOR")));
    snap =
        new Snapshot(
            TestLines.NOW,
            "gridftp.example.org",
            acc.result(ForecastInputs.univariate(TestLines.NOW)).stream()
                .map(s -> new ScopedStats(Endpoint.parse("gsiftp://gridftp.example.org:2811"), s))
                .toList(),
            Map.of("/var/log/x.log", Map.of("binary data", 3L)),
            Map.of("/var/log/x.log", false),
            Map.of("disk/sda/util", new Point(TestLines.NOW, 12.5)),
            Map.of());
    SeriesSource series =
        new SeriesSource() {
          @Override
          public List<String> names() {
            return List.of("disk/sda/util");
          }

          @Override
          public List<Point> points(String name) {
            return name.equals("disk/sda/util")
                ? List.of(new Point(Instant.parse("2026-11-22T11:55:00Z"), 12.5))
                : List.of();
          }
        };
    server =
        ProviderHttpServer.start(
            InetAddress.getLoopbackAddress(), 0, () -> snap, series, HttpLimits.DEFAULT);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> get(String path, String accept) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (accept != null) {
      b.header("Accept", accept);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void healthz_ok() throws Exception {
    HttpResponse<String> r = get("/healthz", null);
    assertEquals(200, r.statusCode());
    assertEquals("ok\n", r.body());
  }

  @Test
  void stats_filters_returnMatchingGroupsOnly() throws Exception {
    HttpResponse<String> r = get("/v1/stats?peer=10.0.0.1&operation=read&sizeClass=10M", null);
    assertEquals(200, r.statusCode());
    JsonNode o = StatsJson.MAPPER.readTree(r.body());
    assertEquals(3, o.get("rejectedLines").asLong());
    JsonNode s = o.get("stats");
    assertEquals(1, s.size());
    assertEquals(20, s.get(0).get("count").asLong());
    assertEquals("ok", s.get(0).get("forecast").get("status").asText());
    assertEquals(4, StatsJson.MAPPER.readTree(get("/v1/stats", null).body()).get("stats").size());
  }

  @Test
  void stats_badFilter_is400WithReason() throws Exception {
    HttpResponse<String> r = get("/v1/stats?operation=delete", null);
    assertEquals(400, r.statusCode());
    assertEquals("operation must be read or write: delete\n", r.body());
    assertEquals(400, get("/v1/stats?colour=red", null).statusCode());
  }

  @Test
  void ads_classAdTextByDefault_jsonWhenAccepted() throws Exception {
    HttpResponse<String> text = get("/v1/ads", null);
    assertEquals(200, text.statusCode());
    assertTrue(
        text.body().startsWith("[\n  MyType = \"Storage\";\n  hostname = \"gridftp.example.org\";"),
        text.body());
    assertTrue(text.body().contains("  AvgRDBandwidth10M = "), text.body());
    assertTrue(text.body().contains("  PredRDBandwidth = "), text.body());
    assertTrue(text.body().contains("  AvgWRBandwidth100M = "), text.body());
    HttpResponse<String> json = get("/v1/ads?peer=10.0.0.1", "application/json");
    JsonNode a = StatsJson.MAPPER.readTree(json.body());
    assertEquals(1, a.size());
    assertEquals(
        snap.stats().get(0).stats().meanBandwidth(), a.get(0).get("AvgRDBandwidth").asDouble(), 0);
  }

  @Test
  void metricsAndSeries() throws Exception {
    HttpResponse<String> m = get("/metrics", null);
    assertEquals(200, m.statusCode());
    assertTrue(
        m.headers().firstValue("Content-Type").get().startsWith("text/plain; version=0.0.4"));
    assertEquals(
        20.0,
        MetricsText.value(
            m.body(),
            "braid_provider_window_transfers{endpoint=\"gsiftp://gridftp.example.org:2811\","
                + "operation=\"read\",peer=\"10.0.0.1\",size_class=\"10M\",volume=\"/data\"}"));
    assertEquals(
        0.0, MetricsText.value(m.body(), "braid_provider_log_missing{log=\"/var/log/x.log\"}"));
    // The metrics answer counts itself after it was written: the next one shows it.
    assertTrue(
        MetricsText.value(
                get("/metrics", null).body(),
                "braid_provider_http_requests_total{code=\"200\",path=\"/metrics\"}")
            >= 1);
    JsonNode s = StatsJson.MAPPER.readTree(get("/v1/series/disk%2Fsda%2Futil", null).body());
    assertEquals(12.5, s.get("points").get(0).get("value").asDouble());
    assertEquals(200, get("/v1/series/disk/sda/util", null).statusCode());
    assertEquals(404, get("/v1/series/nope", null).statusCode());
    assertEquals(404, get("/v1/series/disk+sda", null).statusCode());
    assertEquals("[\"disk/sda/util\"]\n", get("/v1/series", null).body());
  }

  @Test
  void unknownPath_is404() throws Exception {
    assertEquals(404, get("/v2/anything", null).statusCode());
  }

  @Test
  void post_is405WithAllow() throws Exception {
    HttpResponse<String> r =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/stats"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, r.statusCode());
    assertEquals("GET, HEAD", r.headers().firstValue("Allow").get());
  }

  @Test
  void head_hasNoBody() throws Exception {
    String raw = raw("HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assertTrue(raw.startsWith("HTTP/1.1 200"), raw);
    assertTrue(raw.endsWith("\r\n\r\n"), raw);
  }

  @Test
  void longUri_is414() throws Exception {
    String raw = raw("GET /v1/stats?peer=" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    assertTrue(raw.startsWith("HTTP/1.1 414"), raw);
  }

  @Test
  void hugeRequestLine_is431NotADroppedConnection() throws Exception {
    String raw = raw("GET /" + "a".repeat(200_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    assertTrue(raw.startsWith("HTTP/1.1 431"), raw);
  }

  @Test
  void tooManyHeaders_is431() throws Exception {
    StringBuilder sb = new StringBuilder("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    for (int i = 0; i < 60; i++) {
      sb.append("X-H").append(i).append(": v\r\n");
    }
    assertTrue(raw(sb.append("\r\n").toString()).startsWith("HTTP/1.1 431"));
    String big = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(9000) + "\r\n\r\n";
    assertTrue(raw(big).startsWith("HTTP/1.1 431"));
  }

  @Test
  void garbage_is400() throws Exception {
    String raw = raw("\u0001\u0002 garbage\r\n\r\n");
    assertTrue(raw.startsWith("HTTP/1.1 400"), raw);
  }

  @Test
  void connectionsBeyondTheLimit_closeTheLongestWaiting_else503() throws Exception {
    ProviderMetrics pm = new ProviderMetrics(() -> snap);
    try (ProviderHttpServer small =
            ProviderHttpServer.start(
                InetAddress.getLoopbackAddress(),
                0,
                () -> snap,
                new SeriesSource() {
                  @Override
                  public List<String> names() {
                    return List.of();
                  }

                  @Override
                  public List<Point> points(String name) {
                    return List.of();
                  }
                },
                new HttpLimits(2048, 8192, 50, 2),
                pm);
        Socket a = new Socket(InetAddress.getLoopbackAddress(), small.port());
        Socket b = new Socket(InetAddress.getLoopbackAddress(), small.port())) {
      String ok = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
      a.getOutputStream().write(ok.getBytes(StandardCharsets.US_ASCII));
      assertEquals(
          "HTTP/1.1 200", new String(a.getInputStream().readNBytes(12), StandardCharsets.US_ASCII));
      Thread.sleep(50); // a waits for its next request before b does
      b.getOutputStream().write(ok.getBytes(StandardCharsets.US_ASCII));
      assertEquals(
          "HTTP/1.1 200", new String(b.getInputStream().readNBytes(12), StandardCharsets.US_ASCII));
      // Both idle: a third connection closes the one waiting longest (a) and is answered.
      try (Socket c = new Socket(InetAddress.getLoopbackAddress(), small.port())) {
        c.getOutputStream()
            .write(
                "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        String third = new String(c.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(third.startsWith("HTTP/1.1 200"), third);
      }
      a.setSoTimeout(5_000);
      try {
        a.getInputStream().readAllBytes(); // the rest of a's answer, then the end
      } catch (SocketException reset) {
        // closed at once (RST): what an evicted connection gets
      }
      assertEquals(
          1.0,
          MetricsText.value(
              pm.text(), "braid_provider_http_closed_connections_total{reason=\"evicted\"}"));
    }
  }

  @Test
  void headDeadline_closesAStalledHead_evenWithFreeSlots() throws Exception {
    ProviderMetrics pm = new ProviderMetrics(() -> snap);
    HttpLimits limits =
        new HttpLimits(2048, 8192, 50, 16, Duration.ofMillis(300), Duration.ofSeconds(5));
    try (ProviderHttpServer small =
            ProviderHttpServer.start(
                InetAddress.getLoopbackAddress(), 0, () -> snap, NO_SERIES, limits, pm);
        Socket stalled = new Socket(InetAddress.getLoopbackAddress(), small.port())) {
      long t0 = System.nanoTime();
      stalled
          .getOutputStream()
          .write("GET /healthz HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
      stalled.setSoTimeout(5_000);
      byte[] rest;
      try {
        rest = stalled.getInputStream().readAllBytes();
      } catch (SocketException reset) {
        rest = new byte[0]; // closed at once (RST)
      }
      long millis = (System.nanoTime() - t0) / 1_000_000;
      assertEquals(0, rest.length, new String(rest, StandardCharsets.US_ASCII));
      assertTrue(millis >= 300 && millis < 4_000, "closed after " + millis + " ms");
      assertEquals(
          1.0,
          MetricsText.value(
              pm.text(), "braid_provider_http_closed_connections_total{reason=\"head_timeout\"}"));
      // a head sent in time is answered
      try (Socket ok = new Socket(InetAddress.getLoopbackAddress(), small.port())) {
        ok.getOutputStream()
            .write(
                "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        String answer = new String(ok.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      }
    }
  }

  private static final SeriesSource NO_SERIES =
      new SeriesSource() {
        @Override
        public List<String> names() {
          return List.of();
        }

        @Override
        public List<Point> points(String name) {
          return List.of();
        }
      };

  @Test
  void start_portInUse_namesAddressAndPort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      BindException e =
          assertThrows(
              BindException.class,
              () ->
                  ProviderHttpServer.start(
                      InetAddress.getLoopbackAddress(),
                      port,
                      () -> snap,
                      new SeriesSource() {
                        @Override
                        public List<String> names() {
                          return List.of();
                        }

                        @Override
                        public List<Point> points(String name) {
                          return List.of();
                        }
                      },
                      HttpLimits.DEFAULT));
      assertTrue(
          e.getMessage().startsWith("http: cannot listen on 127.0.0.1:" + port + ": "),
          e.getMessage());
    }
  }

  @Test
  void connections_overTheLimitWithNoneWaiting_markedOverloaded() throws Exception {
    HttpLimits limits = new HttpLimits(2048, 8192, 50, 1);
    ProviderMetrics metrics = new ProviderMetrics(() -> snap);
    try (Connections conns = new Connections(limits, Http1Config.DEFAULT, metrics);
        ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Socket c1 = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket s1 = server.accept();
        Socket c2 = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket s2 = server.accept()) {
      Connections.BoundedConnection busy = conns.accept(s1);
      busy.waitingForHead = false; // its request is being answered
      Connections.BoundedConnection over = conns.accept(s2);
      assertTrue(over.overloaded());
      assertTrue(busy.isOpen());
      assertTrue(c1.isConnected() && c2.isConnected());
      busy.close();
      over.close();
    }
  }

  /** Sends raw bytes and reads the whole answer (the server closes after errors). */
  static String raw(String request) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      try {
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        s.shutdownOutput();
      } catch (IOException e) {
        // The server may answer and close before reading everything.
      }
      InputStream in = s.getInputStream();
      byte[] buf = in.readNBytes(64 * 1024);
      String text = new String(buf, StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (text.startsWith("HTTP/1.1 200") && request.startsWith("HEAD")) {
        return text.substring(0, end + 4);
      }
      return text;
    }
  }
}
