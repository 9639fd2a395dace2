package org.braid.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.StatsJson;
import org.braid.provider.publish.Figure3Ldif;
import org.braid.provider.publish.MetricsText;
import org.braid.provider.publish.StorageAds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code volumes} configuration: each volume's free and total space in every output. */
class VolumeSpaceTest {

  /**
   * Other processes write to the shared disk while a test runs: usable space may move this much.
   */
  private static final long DRIFT = 256L << 20;

  @TempDir Path dir;

  private Path config(String volumes) throws Exception {
    Files.createDirectories(dir.resolve("data"));
    Path yaml = dir.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: gridftp.example.org",
            "database: " + dir.resolve("provider.db"),
            "http:",
            "  port: 0",
            "logs:",
            "  - path: " + dir.resolve("gridftp.log"),
            "    format: gridftp",
            volumes,
            ""));
    return yaml;
  }

  private void writeLog() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      sb.append(TestLines.gridftp(i * 600, "10.0.0.1", 10_000_000, 1000, "RETR")).append('\n');
    }
    Files.writeString(dir.resolve("gridftp.log"), sb);
  }

  private static void assertUsable(FileStore fs, long before, long published) throws Exception {
    long after = fs.getUsableSpace();
    assertTrue(
        published >= Math.min(before, after) - DRIFT
            && published <= Math.max(before, after) + DRIFT,
        "published usable " + published + " not between " + before + " and " + after);
  }

  @Test
  void provider_publishesTheFileStoresUsableAndTotalSpace_inEveryOutput() throws Exception {
    writeLog();
    String volume = "/data"; // the VOLUME of every TestLines transfer
    Path data = dir.resolve("data");
    Path yaml =
        config(
            String.join(
                "\n",
                "volumes:",
                "  - volume: " + volume,
                "    dataDirectory: " + data,
                "  - volume: /empty",
                "    dataDirectory: " + data));
    FileStore fs = Files.getFileStore(data);
    long before = fs.getUsableSpace();
    try (Provider p =
        Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.fixed(TestLines.NOW))) {
      p.refresh();
      VolumeSpace v = p.snapshot().volumes().get(volume);
      assertEquals(fs.getTotalSpace(), v.total());
      assertUsable(fs, before, v.available());
      assertTrue(v.available() < v.total(), v.toString());

      List<Map<String, Object>> ads = StorageAds.ads(p.snapshot(), null);
      Map<String, Object> withStats = ads.get(0);
      assertEquals("10.0.0.1", withStats.get("peer"));
      assertEquals(v.available(), withStats.get("AvailableSpace"));
      assertEquals(v.total(), withStats.get("TotalSpace"));
      // A volume without transfers still gets an ad carrying its space.
      Map<String, Object> empty = ads.get(1);
      assertEquals("/empty", empty.get("volume"));
      assertFalse(empty.containsKey("peer"));
      assertEquals(fs.getTotalSpace(), empty.get("TotalSpace"));
      assertTrue(
          StorageAds.classAds(p.snapshot(), null)
              .contains("AvailableSpace = " + v.available() + ";"));
      assertEquals(
          v.total(),
          AdsJson.parse(StorageAds.json(p.snapshot(), "10.0.0.1").getBytes(StandardCharsets.UTF_8))
              .get(0)
              .get("TotalSpace"));
      // asked for a peer /data never served: both volumes answer with their space, without peer
      List<Map<String, Object>> other = StorageAds.ads(p.snapshot(), "192.0.2.9");
      assertEquals(List.of(volume, "/empty"), other.stream().map(a -> a.get("volume")).toList());
      assertTrue(other.stream().noneMatch(a -> a.containsKey("peer")), other.toString());
      assertEquals(v.available(), other.get(0).get("AvailableSpace"));

      String ldif = Figure3Ldif.render(p.snapshot());
      assertTrue(
          ldif.contains("availablespace: " + v.available() + "\ntotalspace: " + v.total() + "\n"),
          ldif);
      assertTrue(
          ldif.contains(
              "dn: volume=/empty,hostname=gridftp.example.org,dc=example,dc=org,o=grid\n"),
          ldif);

      String prom = p.metrics().text();
      assertEquals(
          (double) v.available(),
          MetricsText.value(
              prom, "braid_provider_volume_available_bytes{volume=\"" + volume + "\"}"));
      assertEquals(
          (double) v.total(),
          MetricsText.value(prom, "braid_provider_volume_total_bytes{volume=\"/empty\"}"));

      VolumeSpace empties =
          p.snapshot().volumes().values().stream()
              .filter(x -> x.volume().equals("/empty"))
              .findFirst()
              .orElseThrow();
      assertEquals(data, empties.dataDirectory());
      assertEquals(v.total(), empties.total());
    }
  }

  @Test
  void provider_spaceIsReadAgainAtEachPoll_withoutNewTransfers() throws Exception {
    writeLog();
    Path data = dir.resolve("data");
    Path yaml =
        config(String.join("\n", "volumes:", "  - volume: /data", "    dataDirectory: " + data));
    try (Provider p =
        Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.fixed(TestLines.NOW))) {
      p.refresh();
      assertTrue(p.snapshot().volumes().containsKey("/data"));
      // The directory goes away: the next poll (no new transfer) drops the figures, it does not
      // crash.
      Files.delete(data);
      p.refresh();
      assertFalse(p.snapshot().volumes().containsKey("/data"));
      Files.createDirectories(data);
      FileStore fs = Files.getFileStore(data);
      long before = fs.getUsableSpace();
      p.refresh();
      assertUsable(fs, before, p.snapshot().volumes().get("/data").available());
    }
  }

  @Test
  void provider_statsEndpoint_listsVolumes() throws Exception {
    writeLog();
    Path data = dir.resolve("data");
    Path yaml =
        config(String.join("\n", "volumes:", "  - volume: /data", "    dataDirectory: " + data));
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      p.start();
      String body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + p.httpPort() + "/v1/stats"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      JsonNode v = StatsJson.MAPPER.readTree(body).get("volumes").get(0);
      assertEquals("/data", v.get("volume").asText());
      assertEquals(Files.getFileStore(data).getTotalSpace(), v.get("totalSpace").asLong());
    }
  }

  @Test
  void config_missingDataDirectory_oneLineErrorNamingKeyAndPath() throws Exception {
    Path missing = dir.resolve("no-such-dir");
    Path yaml =
        config(String.join("\n", "volumes:", "  - volume: /data", "    dataDirectory: " + missing));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(yaml));
    assertEquals(
        yaml
            + ": line 10: volumes: /data: dataDirectory "
            + missing
            + " is not an existing directory",
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void config_volumeTwiceOrWithoutDirectory_rejected() throws Exception {
    Path data = dir.resolve("data");
    Path twice =
        config(
            String.join(
                "\n",
                "volumes:",
                "  - volume: /data",
                "    dataDirectory: " + data,
                "  - volume: /data",
                "    dataDirectory: " + data));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(twice));
    assertEquals(twice + ": line 8: volumes: /data is listed twice", e.getMessage());
    Path none = config(String.join("\n", "volumes:", "  - volume: /data"));
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(none));
    assertEquals(none + ": line 9: volumes: /data needs a dataDirectory", e.getMessage());
  }
}
