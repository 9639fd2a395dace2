package org.braid.provider;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.provider.publish.Figure3Ldif;
import org.braid.provider.publish.MetricsText;
import org.braid.provider.publish.StorageAds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 21: one provider, several doors; each log's statistics are published for its endpoint. */
class EndpointAdsTest {

  @TempDir Path dir;

  /** 20 GridFTP reads at 10 MB/s by 10.0.0.1. */
  private Path gridftpLog() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      sb.append(TestLines.gridftp(i * 600, "10.0.0.1", 10_000_000, 1000, "RETR")).append('\n');
    }
    return Files.writeString(dir.resolve("gridftp.log"), sb);
  }

  /** 20 nginx reads at 2 MB/s by 10.0.0.1. */
  private Path nginxLog() throws Exception {
    StringBuilder sb = new StringBuilder();
    Instant t = TestLines.NOW.minusSeconds(20_000);
    for (int i = 0; i < 20; i++) {
      double end = t.plusSeconds(i * 600L).toEpochMilli() / 1000.0;
      sb.append(
          String.format(
              Locale.ROOT,
              "%.3f 5.000 10.0.0.1 127.0.0.1:8080 GET \"/data/f.bin\" 200 10000000 95 \"-\"%n",
              end));
    }
    return Files.writeString(dir.resolve("access.log"), sb);
  }

  private Path yaml(String... lines) throws Exception {
    return Files.writeString(
        dir.resolve("provider.yaml"),
        String.join(
            "\n",
            "hostname: se.example.org",
            "database: " + dir.resolve("provider.db"),
            "http: {port: 0}",
            String.join("\n", lines),
            ""));
  }

  private static Map<String, Object> adOf(List<Map<String, Object>> ads, String url) {
    return ads.stream().filter(a -> url.equals(a.get(AdAttributes.URL))).findFirst().orElseThrow();
  }

  @Test
  void oneProviderTwoLogs_oneAdPerEndpoint_eachFromItsOwnLog() throws Exception {
    Path yaml =
        yaml(
            "logs:",
            "  - {path: "
                + gridftpLog()
                + ", format: gridftp, endpoint: 'gsiftp://127.0.0.1:2811'}",
            "  - {path: "
                + nginxLog()
                + ", format: nginx, endpoint: 'http://127.0.0.1:8080/data'}");
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      p.refresh();
      List<Map<String, Object>> ads =
          AdsJson.parse(StorageAds.json(p.snapshot(), null).getBytes(UTF_8));
      assertEquals(2, ads.size(), ads.toString());
      Map<String, Object> g = adOf(ads, "gsiftp://127.0.0.1:2811");
      assertEquals(10e6, (Double) g.get("AvgRDBandwidth"), 1);
      assertEquals("gsiftp", g.get(AdAttributes.ENDPOINT_SCHEME));
      assertEquals("127.0.0.1", g.get(AdAttributes.ENDPOINT_HOST));
      assertEquals(2811L, g.get(AdAttributes.ENDPOINT_PORT));
      assertEquals("/", g.get(AdAttributes.ENDPOINT_PATH));
      Map<String, Object> h = adOf(ads, "http://127.0.0.1:8080/data/");
      assertEquals(2e6, (Double) h.get("AvgRDBandwidth"), 1);
      assertEquals(new Endpoint("http", "127.0.0.1", 8080, "/data/"), AdAttributes.endpoint(h));
      assertEquals(20L, h.get("RDTransfers"));

      String classAds = StorageAds.classAds(p.snapshot(), null);
      assertTrue(classAds.contains("  endpointPort = 8080;\n"), classAds);
      String ldif = Figure3Ldif.render(p.snapshot());
      assertTrue(
          ldif.contains(
              "dn: cn=10.0.0.1,volume=/data,endpoint=gsiftp://127.0.0.1:2811,hostname=se.example.org,"),
          ldif);
      assertTrue(
          ldif.contains(
              "dn: cn=10.0.0.1,volume=/,endpoint=http://127.0.0.1:8080/data/,hostname=se.example.org,"),
          ldif);
      assertTrue(ldif.contains("\ngridftpurl: gsiftp://127.0.0.1:2811\n"), ldif);
      assertTrue(ldif.contains("\nurl: http://127.0.0.1:8080/data/\n"), ldif);
      assertTrue(ldif.contains("\nendpointport: 8080\nendpointpath: /data/\n"), ldif);
      String metrics = p.metrics().text();
      assertEquals(
          20.0,
          MetricsText.value(
              metrics,
              "braid_provider_window_transfers{endpoint=\"http://127.0.0.1:8080/data/\","
                  + "operation=\"read\",peer=\"10.0.0.1\",size_class=\"10M\",volume=\"/\"}"));
      // Counted as they were stored: 20 reads through the http endpoint since the start.
      assertEquals(
          20.0,
          MetricsText.value(
              metrics,
              "braid_provider_transfers_total{endpoint=\"http://127.0.0.1:8080/data/\","
                  + "operation=\"read\",result=\"ok\",volume=\"/\"}"));
    }
    // Restarted: the statistics rebuilt from the store keep each log's endpoint.
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      List<Map<String, Object>> ads =
          AdsJson.parse(StorageAds.json(p.computeFromStore(), null).getBytes(UTF_8));
      assertEquals(10e6, (Double) adOf(ads, "gsiftp://127.0.0.1:2811").get("AvgRDBandwidth"), 1);
      assertEquals(2e6, (Double) adOf(ads, "http://127.0.0.1:8080/data/").get("AvgRDBandwidth"), 1);
    }
  }

  @Test
  void defaultEndpoint_theUrlWhenItFitsTheFormat_elseHostLevel() throws Exception {
    Path yaml =
        yaml(
            "url: gsiftp://se.example.org",
            "logs:",
            "  - {path: " + gridftpLog() + ", format: gridftp}",
            "  - {path: " + nginxLog() + ", format: nginx}");
    ProviderConfig c = ProviderConfig.load(yaml);
    assertEquals(
        new Endpoint("gsiftp", "se.example.org", 2811, "/"), c.endpointOf(c.logs().get(0)));
    assertNull(c.endpointOf(c.logs().get(1)), "an HTTP log is not the GridFTP door's");
    try (Provider p = Provider.fromConfig(c, InstantSource.system())) {
      p.refresh();
      List<Map<String, Object>> ads = StorageAds.ads(p.snapshot(), null);
      assertEquals(2, ads.size());
      assertEquals("gsiftp://se.example.org:2811", ads.get(0).get(AdAttributes.URL));
      assertFalse(ads.get(1).containsKey(AdAttributes.URL), ads.get(1).toString());
      assertNull(AdAttributes.endpoint(ads.get(1)), "host-level statistics name no endpoint");
      assertEquals(2e6, (Double) ads.get(1).get("AvgRDBandwidth"), 1);
    }
  }

  @Test
  void config_badEndpoints_oneLineErrorNamingTheLog() throws Exception {
    Path log = gridftpLog();
    Path wrongScheme =
        yaml("logs:", "  - {path: " + log + ", format: gridftp, endpoint: 'http://se:80/'}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(wrongScheme));
    assertEquals(
        wrongScheme
            + ": line 5: logs: "
            + log
            + ": endpoint http://se:80/ does not fit format gridftp (its schemes: gsiftp, ftp)",
        e.getMessage());
    Path noHost = yaml("logs:", "  - {path: " + log + ", format: gridftp, endpoint: 'se:2811'}");
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(noHost));
    assertTrue(
        e.getMessage()
            .startsWith(
                noHost + ": line 5: logs: " + log + ": endpoint must be SCHEME://HOST[:PORT]"),
        e.getMessage());
    Path twice =
        yaml(
            "logs:",
            "  - {path: " + log + ", format: gridftp}",
            "  - {path: " + log + ", format: gridftp, endpoint: 'gsiftp://se'}");
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(twice));
    assertEquals(twice + ": line 4: logs: " + log + " is listed twice", e.getMessage());
  }
}
