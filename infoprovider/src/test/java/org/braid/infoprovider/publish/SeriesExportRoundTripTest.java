package org.braid.infoprovider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.store.Point;
import org.braid.predictors.Series;
import org.braid.predictors.SeriesReaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider's export of a probe series ({@code GET /v1/series/NAME}) reads back through {@code
 * SeriesReaders.readSeries}, the reader behind {@code braid predict --network/--disk}: same name,
 * times and values.
 */
class SeriesExportRoundTripTest {

  @TempDir Path dir;

  @Test
  void v1SeriesAnswer_readsBackAsTheSameSeries() throws Exception {
    String name = "network/10.0.0.1/bandwidth";
    List<Point> points =
        List.of(
            new Point(Instant.parse("2026-11-22T11:55:00Z"), 1.25e7),
            new Point(Instant.parse("2026-11-22T12:00:00.125Z"), 987654.5),
            new Point(Instant.parse("2026-11-22T12:05:00Z"), 0));
    SeriesSource source =
        new SeriesSource() {
          @Override
          public List<String> names() {
            return List.of(name);
          }

          @Override
          public List<Point> points(String n) {
            return n.equals(name) ? points : List.of();
          }
        };
    Snapshot snap =
        new Snapshot(
            TestLines.NOW,
            "h",
            "gsiftp://h:2811",
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            Map.of());
    try (ProviderHttpServer server =
        ProviderHttpServer.start(
            InetAddress.getLoopbackAddress(), 0, () -> snap, source, HttpLimits.DEFAULT)) {
      HttpResponse<Path> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/v1/series/" + name))
                      .build(),
                  HttpResponse.BodyHandlers.ofFile(dir.resolve("net.json")));
      assertEquals(200, r.statusCode());
    }
    Series s = SeriesReaders.readSeries(dir.resolve("net.json"));
    assertEquals(name, s.name());
    assertEquals(points.size(), s.size());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(points.get(i).time(), s.get(i).time());
      assertEquals(points.get(i).value(), s.value(i));
    }
  }
}
