package org.braid.infoprovider.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
    List<Map<String, Object>> ads = List.of(ad, space);
    assertEquals(ads, AdsJson.parse(utf8(AdsJson.write(ads))));
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
            List.of(withForecast, without, none),
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
}
