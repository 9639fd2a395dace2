package org.braid.provider.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.StatsJson;
import org.braid.provider.Provider;
import org.braid.provider.publish.Figure3Ldif;
import org.braid.provider.publish.MetricsText;
import org.braid.provider.publish.Snapshot;

/**
 * What the end-to-end tests expect the provider to publish, computed from the real servers' logs,
 * and the check that every channel (/v1/stats, /metrics, LDIF, ads) publishes it.
 */
final class PublishedFigures {

  private PublishedFigures() {}

  /** What the test expects for one (peer, operation, size class), computed from the log itself. */
  static final class Expected {
    long count;
    long bytes;
    double min = Double.MAX_VALUE;
    double max;
    double sum;

    void add(long size, double bandwidth) {
      count++;
      bytes += size;
      min = Math.min(min, bandwidth);
      max = Math.max(max, bandwidth);
      sum += bandwidth;
    }

    double mean() {
      return sum / count;
    }
  }

  /** Key "peer|operation|sizeClass". */
  static String key(String peer, String op, long size) {
    String sc =
        size < 50_000_000L
            ? "10M"
            : size < 250_000_000L ? "100M" : size < 750_000_000L ? "500M" : "1G";
    return peer + "|" + op + "|" + sc;
  }

  static Map<String, Expected> expectedMap() {
    return new TreeMap<>();
  }

  /**
   * Checks the provider's statistics against the expectation in /v1/stats, /metrics, ads and LDIF.
   */
  static void assertPublished(Provider p, String volume, Map<String, Expected> expected)
      throws Exception {
    Snapshot snap = p.snapshot();
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + p.httpPort();
    String metrics = get(http, base + "/metrics", null);
    String ldif = Figure3Ldif.render(snap);
    JsonNode ads = StatsJson.MAPPER.readTree(get(http, base + "/v1/ads", "application/json"));
    String classAds = get(http, base + "/v1/ads", null);
    // The configured url is the log's endpoint: its metrics carry it as a label.
    Endpoint endpoint = snap.stats().isEmpty() ? null : snap.stats().get(0).endpoint();
    String endpointLabel = endpoint == null ? "" : endpoint.url();
    for (Map.Entry<String, Expected> e : expected.entrySet()) {
      String[] k = e.getKey().split("\\|");
      Expected x = e.getValue();
      JsonNode arr =
          StatsJson.MAPPER
              .readTree(
                  get(
                      http,
                      base
                          + "/v1/stats?peer="
                          + k[0]
                          + "&operation="
                          + k[1]
                          + "&sizeClass="
                          + k[2]
                          + "&volume="
                          + volume,
                      null))
              .get("stats");
      assertEquals(1, arr.size(), e.getKey());
      JsonNode s = arr.get(0);
      assertEquals(x.count, s.get("count").asLong(), e.getKey());
      assertEquals(x.bytes, s.get("bytes").asLong(), e.getKey());
      assertClose(x.min, s.get("minBandwidth").asDouble(), e.getKey() + " min");
      assertClose(x.max, s.get("maxBandwidth").asDouble(), e.getKey() + " max");
      assertClose(x.mean(), s.get("meanBandwidth").asDouble(), e.getKey() + " mean");
      String labels =
          "{endpoint=\""
              + endpointLabel
              + "\",operation=\""
              + k[1]
              + "\",peer=\""
              + k[0]
              + "\",size_class=\""
              + k[2]
              + "\"";
      String end = ",volume=\"" + volume + "\"}";
      assertEquals(
          (double) x.count,
          MetricsText.value(metrics, "braid_provider_window_transfers" + labels + end),
          labels);
      assertEquals(
          (double) x.bytes,
          MetricsText.value(metrics, "braid_provider_window_bytes" + labels + end),
          labels);
      double mean =
          MetricsText.value(
              metrics,
              "braid_provider_bandwidth_bytes_per_second" + labels + ",stat=\"mean\"" + end);
      assertClose(x.mean(), mean, e.getKey() + " metrics mean");
      String op = k[1].equals("read") ? "RD" : "WR";
      String range =
          Map.of(
                  "10M",
                  "tenmbrange",
                  "100M",
                  "hundredmbrange",
                  "500M",
                  "fivehundredmbrange",
                  "1G",
                  "onegbrange")
              .get(k[2]);
      assertTrue(
          ldif.contains(
              "\navg"
                  + op.toLowerCase(Locale.ROOT)
                  + "bandwidth"
                  + range
                  + ": "
                  + Math.round(x.mean() / 1000)
                  + "K\n"),
          e.getKey() + "\n" + ldif);
      JsonNode ad = null;
      for (JsonNode a : ads) {
        if (a.get("peer").asText().equals(k[0]) && a.get("volume").asText().equals(volume)) {
          ad = a;
        }
      }
      assertTrue(ad != null, "no ad for " + k[0]);
      assertClose(x.mean(), ad.get("Avg" + op + "Bandwidth" + k[2]).asDouble(), e.getKey() + " ad");
      assertEquals(x.count, ad.get(op + "Transfers" + k[2]).asLong());
      assertTrue(
          classAds.contains(
              "  Avg"
                  + op
                  + "Bandwidth"
                  + k[2]
                  + " = "
                  + String.format(
                      Locale.ROOT, "%.3f", ad.get("Avg" + op + "Bandwidth" + k[2]).asDouble())
                  + ";\n"),
          classAds);
    }
  }

  static void assertClose(double expected, double actual, String what) {
    assertEquals(expected, actual, Math.abs(expected) * 1e-9, what);
  }

  static String get(HttpClient http, String url, String accept) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (accept != null) {
      b.header("Accept", accept);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url + ": " + r.body());
    return r.body();
  }
}
