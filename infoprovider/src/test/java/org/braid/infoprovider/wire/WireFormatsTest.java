package org.braid.infoprovider.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.StatsKey;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.AdAttributes.Stat;
import org.braid.predictors.Forecast;
import org.junit.jupiter.api.Test;

/** Each provider answer read back by its reader is what its writer wrote. */
class WireFormatsTest {

  private static final Instant T = Instant.parse("2026-11-22T04:00:00.123Z");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void ads_writtenAndRead_areEqual() throws IOException {
    Map<String, Object> ad = new LinkedHashMap<>();
    ad.put(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    ad.put(AdAttributes.HOSTNAME, "se.example.org");
    ad.put(AdAttributes.VOLUME, "/data");
    ad.put(AdAttributes.PEER, "client \"a\"");
    ad.put(AdAttributes.bandwidth(Stat.AVG, Operation.READ, SizeClass.ALL), 8.5e6);
    ad.put(AdAttributes.transfers(Operation.READ, SizeClass.C10M), 20L);
    ad.put(AdAttributes.predicted(Operation.WRITE, SizeClass.C1G), 1.25e7);
    ad.put(AdAttributes.AVAILABLE_SPACE, Long.MAX_VALUE);
    Map<String, Object> space = Map.of(AdAttributes.VOLUME, "/empty", AdAttributes.TOTAL_SPACE, 0L);
    Map<String, Object> door = new LinkedHashMap<>(ad);
    AdAttributes.putEndpoint(door, Endpoint.parse("HTTP://SE.example.org/data"));
    List<Map<String, Object>> ads = List.of(ad, space, door);
    List<Map<String, Object>> read = AdsJson.parse(utf8(AdsJson.write(ads)));
    assertEquals(ads, read);
    assertEquals(
        new Endpoint("http", "se.example.org", 80, "/data/"), AdAttributes.endpoint(read.get(2)));
    assertEquals("http://se.example.org:80/data/", read.get(2).get(AdAttributes.URL));
    assertEquals(null, AdAttributes.endpoint(read.get(0)));
  }

  @Test
  void endpoint_readFromParts_elseFromTheOldUrl_elseNone() {
    assertEquals(
        new Endpoint("gsiftp", "se", 2811, "/"),
        AdAttributes.endpoint(
            Map.of(AdAttributes.ENDPOINT_SCHEME, "gsiftp", AdAttributes.ENDPOINT_HOST, "se")));
    // A provider from before endpoints: its one configured server URL.
    assertEquals(
        new Endpoint("http", "127.0.0.1", 18081, "/"),
        AdAttributes.endpoint(Map.of(AdAttributes.URL, "http://127.0.0.1:18081")));
    assertEquals(null, AdAttributes.endpoint(Map.of(AdAttributes.URL, "not a url")));
    assertEquals(
        null,
        AdAttributes.endpoint(
            Map.of(
                AdAttributes.ENDPOINT_SCHEME,
                "http",
                AdAttributes.ENDPOINT_HOST,
                "se",
                AdAttributes.ENDPOINT_PORT,
                70_000L)));
    assertEquals(
        null,
        AdAttributes.endpoint(
            Map.of(AdAttributes.ENDPOINT_SCHEME, "http", AdAttributes.ENDPOINT_HOST, "")));
  }

  @Test
  void endpoint_serves_sameSchemeHostPort_andPathBelowItsPrefix() {
    Endpoint e = Endpoint.parse("http://Se.Example.org:8080/data");
    assertEquals("http://se.example.org:8080/data/", e.url());
    assertTrue(e.serves(URI.create("http://se.example.org:8080/data/run42.h5")));
    assertTrue(e.serves(URI.create("HTTP://SE.EXAMPLE.ORG:8080/data")));
    assertTrue(!e.serves(URI.create("http://se.example.org:8080/database/x")));
    assertTrue(!e.serves(URI.create("http://se.example.org/data/x")));
    assertTrue(!e.serves(URI.create("https://se.example.org:8080/data/x")));
    assertTrue(!e.serves(URI.create("http://other.example.org:8080/data/x")));
    Endpoint root = Endpoint.parse("gsiftp://[::1]");
    assertEquals("gsiftp://[::1]:2811", root.url());
    assertTrue(root.serves(URI.create("gsiftp://[::1]:2811/any/file")));
    assertEquals("gsiftp://[::1]:2811", Endpoint.serverOf(URI.create("gsiftp://[::1]/f")).server());
  }

  @Test
  void endpoint_badText_oneLineErrorNamingIt() {
    for (String bad :
        List.of(
            "se.example.org",
            "http://",
            "http://u:p@se/",
            "http://se/?a=1",
            "http://se:0/",
            "1x://se/")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Endpoint.parse(bad), bad);
      assertTrue(e.getMessage().contains("endpoint"), e.getMessage());
      assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
  }

  @Test
  void ads_writerRefusesWhatNoReaderAccepts() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AdsJson.write(List.of(Map.of("AvgRDBandwidth", Double.NaN))));
    assertTrue(e.getMessage().contains("AvgRDBandwidth"), e.getMessage());
  }

  @Test
  void vocabulary_namesArePapersAttributes() {
    assertEquals(
        "AvgRDBandwidth10M", AdAttributes.bandwidth(Stat.AVG, Operation.READ, SizeClass.C10M));
    assertEquals(
        "MinWRBandwidth", AdAttributes.bandwidth(Stat.MIN, Operation.WRITE, SizeClass.ALL));
    assertEquals("RDTransfers1G", AdAttributes.transfers(Operation.READ, SizeClass.C1G));
    assertEquals("PredRDBandwidth", AdAttributes.predicted(Operation.READ, SizeClass.ALL));
    assertEquals(
        "PredWRErrorPct500M", AdAttributes.predictedErrorPct(Operation.WRITE, SizeClass.C500M));
    assertEquals(
        "PredRDConfidencePct100M",
        AdAttributes.predictedConfidencePct(Operation.READ, SizeClass.C100M));
  }

  @Test
  void series_writtenAndRead_areEqual() throws IOException {
    List<String> names = List.of("network/10.0.0.1/bandwidth", "disk/sda/util_percent");
    assertEquals(names, SeriesJson.readNames(utf8(SeriesJson.writeNames(names))));
    SeriesJson.Answer a =
        new SeriesJson.Answer(
            "disk/sda/util_percent", List.of(new Point(T, 12.5), new Point(T.plusSeconds(2), 0)));
    assertEquals(a, SeriesJson.read(utf8(SeriesJson.write(a))));
  }

  @Test
  void stats_writtenAndRead_areEqual() throws IOException {
    TransferStats withForecast =
        new TransferStats(
            new StatsKey("/data", "10.0.0.1", Operation.READ, SizeClass.C10M),
            20,
            1,
            200_000_000,
            1e6,
            9e6,
            5e6,
            2e6,
            4.5e6,
            6e6,
            T,
            new Forecast("default", 5.2e6, 12.5, 3.25, 20, 5, "MED5", Forecast.Status.OK));
    TransferStats without =
        new TransferStats(
            new StatsKey("/", "client", Operation.WRITE, SizeClass.ALL),
            1,
            0,
            10,
            10,
            10,
            10,
            0,
            10,
            10,
            T,
            Forecast.insufficient("default", 1));
    TransferStats none =
        new TransferStats(
            new StatsKey("/", "client", Operation.WRITE, SizeClass.C1G),
            1,
            0,
            10,
            10,
            10,
            10,
            0,
            10,
            10,
            T,
            null);
    StatsJson.Answer a =
        new StatsJson.Answer(
            T,
            "se.example.org",
            3,
            List.of(
                new ScopedStats(Endpoint.parse("gsiftp://se.example.org:2811"), withForecast),
                new ScopedStats(Endpoint.parse("http://se.example.org:8080/data/"), without),
                ScopedStats.ofHost(none)),
            List.of(new VolumeSpace("/data", Path.of("/srv/data"), 1L << 40, 1L << 42)));
    assertEquals(a, StatsJson.read(utf8(StatsJson.write(a))));
  }

  @Test
  void stats_badAnswer_namesTheField() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                StatsJson.read(
                    utf8(
                        "{\"computedAt\":\"2026-11-22T04:00:00Z\",\"hostname\":\"h\","
                            + "\"rejectedLines\":0,\"stats\":[{\"volume\":\"/\"}],"
                            + "\"volumes\":[]}")));
    assertEquals("bad statistics answer: missing peer", e.getMessage());
  }

  @Test
  void glue2Extensions_adAndProbe_writtenAndRead_areEqual() throws IOException {
    Map<String, Object> ad = new LinkedHashMap<>();
    ad.put(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    ad.put(AdAttributes.HOSTNAME, "se.example.org");
    ad.put(AdAttributes.PEER, "10.0.0.1");
    AdAttributes.putEndpoint(ad, Endpoint.parse("gsiftp://se.example.org:2811"));
    ad.put(AdAttributes.bandwidth(Stat.AVG, Operation.READ, SizeClass.ALL), 8_123_456.789);
    ad.put(AdAttributes.transfers(Operation.READ, SizeClass.ALL), 40L);
    assertEquals(ad, Glue2Extensions.readAd(Glue2Extensions.adValue(ad)));

    Glue2Extensions.Probe p =
        new Glue2Extensions.Probe("se.example.org", "disk/sda/util_percent", T, 12.5);
    assertEquals(p, Glue2Extensions.readProbe(Glue2Extensions.probeValue(p)));
  }

  @Test
  void glue2Extensions_badValues_refusedWithAReason() {
    IOException two =
        assertThrows(IOException.class, () -> Glue2Extensions.readAd("[{\"a\":1},{\"b\":2}]"));
    assertEquals("extension value holds 2 ads, not one", two.getMessage());
    IOException probe =
        assertThrows(
            IOException.class,
            () -> Glue2Extensions.readProbe("[{\"hostname\":\"h\",\"series\":\"s\"}]"));
    assertEquals("probe value needs hostname, series, time and value", probe.getMessage());
    assertThrows(IOException.class, () -> Glue2Extensions.readAd("x".repeat(70_000)));
  }
}
