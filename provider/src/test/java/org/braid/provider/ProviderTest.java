package org.braid.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.provider.probe.Probe;
import org.braid.provider.publish.MetricsText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderTest {

  @TempDir Path dir;

  private Path config(String extra) throws Exception {
    Path yaml = dir.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: gridftp.example.org",
            "url: gsiftp://gridftp.example.org:2811",
            "database: " + dir.resolve("db/provider.db"),
            "http:",
            "  port: 0",
            "logs:",
            "  - path: " + dir.resolve("gridftp.log"),
            "    format: gridftp",
            extra,
            ""));
    return yaml;
  }

  private void writeLog(int from, int to) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append(
              TestLines.gridftp(
                  i * 600, "10.0.0.1", 10_000_000 + i * 1000L, 1000 + i * 10L, "RETR"))
          .append('\n');
    }
    Files.writeString(
        dir.resolve("gridftp.log"),
        sb,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }

  @Test
  void config_defaultsAndDurations() throws Exception {
    ProviderConfig c =
        ProviderConfig.load(
            config(
                String.join(
                    "\n",
                    "probes:",
                    "  network:",
                    "    peers:",
                    "      - address: 10.0.0.1",
                    "        url: http://10.0.0.1/probe.bin",
                    "  disk:",
                    "    devices: [sda]",
                    "    interval: 1m")));
    assertEquals("127.0.0.1", c.http().bind());
    assertEquals(Duration.ofDays(30), c.retention());
    assertEquals(Duration.ofSeconds(10), c.poll());
    assertEquals(Duration.ofMinutes(5), c.probes().network().interval());
    assertEquals(Duration.ofMinutes(1), c.probes().disk().interval());
    assertEquals(Path.of("/proc/diskstats"), c.probes().disk().diskstats());
  }

  @Test
  void config_unknownKey_namesFileLineAndKey() throws Exception {
    Path yaml = config("colour: blue");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(yaml));
    assertEquals(
        yaml
            + ": line 9: colour: unknown key (known: database, hostname, http, logs, poll, probes,"
            + " retention, url, volumes)",
        e.getMessage());
  }

  @Test
  void config_badValues_namedInMessage() throws Exception {
    Path yaml = config("poll: soon");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(yaml));
    assertEquals(
        yaml + ": line 9: poll: duration must look like 300s, 5m, 2h, 30d or PT5M: soon",
        e.getMessage());
    Path noLogs = dir.resolve("empty.yaml");
    Files.writeString(noLogs, "hostname: x\n");
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(noLogs));
    assertEquals(noLogs + ": logs: at least one log is needed", e.getMessage());
  }

  @Test
  void config_errors_atTheLineOfTheKeyAtFault() throws Exception {
    Path log = dir.resolve("gridftp.log");
    Path typo = dir.resolve("typo.yaml");
    // The case: a typo on line 5, reported on line 5 (it was line 22, the end).
    Files.writeString(
        typo,
        String.join(
            "\n",
            "hostname: h",
            "database: " + dir.resolve("t.db"),
            "http:",
            "  bind: 127.0.0.1",
            "  prot: 8790",
            "logs:",
            "  - path: " + log,
            "    format: gridftp",
            "\n".repeat(14)));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(typo));
    assertEquals(typo + ": line 5: http.prot: unknown key (known: bind, port)", e.getMessage());

    Path bad = dir.resolve("bad.yaml");
    String[] lines = {
      "logs:",
      "  - path: " + log,
      "    format: gridftp",
      "  - path: " + dir.resolve("access.log"),
      "    format: ngnix",
      "http:",
      "  port: 70000",
      ""
    };
    Files.writeString(bad, String.join("\n", lines));
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(bad));
    assertTrue(e.getMessage().startsWith(bad + ": line 5: logs.1.format: "), e.getMessage());
    lines[4] = "    format: nginx";
    Files.writeString(bad, String.join("\n", lines));
    e = assertThrows(IllegalArgumentException.class, () -> ProviderConfig.load(bad));
    assertEquals(bad + ": line 7: http.port must be 0-65535: 70000", e.getMessage());
  }

  @Test
  void logMissing_followsTheLogsRealState_disappearsAndComesBack() throws Exception {
    Path yaml = config("");
    Path log = dir.resolve("gridftp.log");
    Files.writeString(log, TestLines.gridftp(1) + "\n");
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      String series = "braid_provider_log_missing{log=\"" + log.toAbsolutePath() + "\"}";
      p.refresh();
      assertEquals(0.0, MetricsText.value(p.metrics().text(), series));
      Files.delete(log); // no new lines: the statistics stay as they are, the state does not
      p.refresh();
      assertEquals(1.0, MetricsText.value(p.metrics().text(), series));
      assertEquals(Map.of(log.toAbsolutePath().toString(), true), p.snapshot().missingLogs());
      Files.writeString(log, TestLines.gridftp(2) + "\n");
      p.refresh();
      assertEquals(0.0, MetricsText.value(p.metrics().text(), series));
    }
  }

  @Test
  void refresh_readsLogsComputesStatsWithForecastsAndSurvivesRestart() throws Exception {
    writeLog(0, 20);
    ProviderConfig c = ProviderConfig.load(config(""));
    InstantSource clock = InstantSource.fixed(TestLines.NOW);
    try (Provider p = Provider.fromConfig(c, clock)) {
      assertEquals(20, p.refresh().records());
      TransferStats s = p.snapshot().stats().get(0).stats();
      assertEquals(20, s.count());
      assertNotNull(s.forecast());
      assertTrue(s.forecast().isAvailable(), s.forecast().toString());
    }
    writeLog(20, 22);
    try (Provider p = Provider.fromConfig(c, clock)) {
      assertEquals(2, p.refresh().records());
      assertEquals(22, p.snapshot().stats().get(0).stats().count());
    }
  }

  @Test
  void refresh_incrementalStatistics_countNewTransfersOnlyOnce() throws Exception {
    writeLog(0, 10);
    try (Provider p =
        Provider.fromConfig(ProviderConfig.load(config("")), InstantSource.fixed(TestLines.NOW))) {
      p.refresh();
      writeLog(10, 13);
      p.refresh();
      assertEquals(13, p.snapshot().stats().get(0).stats().count());
      // The log rewritten in place, shorter, with the same first line: it is read again from the
      // start, but lines already stored are not counted again.
      Path log = dir.resolve("gridftp.log");
      java.util.List<String> lines = Files.readAllLines(log);
      Files.write(log, lines.subList(0, 5));
      p.refresh();
      writeLog(13, 14);
      p.refresh();
      assertEquals(14, p.snapshot().stats().get(0).stats().count());
      assertEquals(14, p.store().transferCount());
    }
  }

  @Test
  void logVolume_overridesTheVolumeOfItsTransfers() throws Exception {
    writeLog(0, 2);
    Path yaml = config("");
    Files.writeString(
        yaml,
        Files.readString(yaml)
            .replace("    format: gridftp", "    format: gridftp\n    volume: /srv/archive"));
    try (Provider p =
        Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.fixed(TestLines.NOW))) {
      p.refresh();
      assertEquals("/srv/archive", p.snapshot().stats().get(0).stats().key().volume());
    }
  }

  @Test
  void probes_pointsStoredAndUsedInForecasts() throws Exception {
    writeLog(0, 20);
    ProviderConfig c = ProviderConfig.load(config(""));
    try (Provider p = Provider.fromConfig(c, InstantSource.fixed(TestLines.NOW))) {
      Probe fake =
          new Probe() {
            int i;

            @Override
            public String name() {
              return "fake";
            }

            @Override
            public java.util.Map<String, org.braid.infoprovider.store.Point> measure() {
              i++;
              return java.util.Map.of(
                  "network/10.0.0.1/bandwidth",
                  new org.braid.infoprovider.store.Point(
                      Instant.parse("2026-11-22T00:00:00Z").plusSeconds(i * 300L), 1e6 * i));
            }
          };
      for (int k = 0; k < 40; k++) {
        p.runProbe(fake);
      }
      p.refresh();
      assertEquals(40, p.store().series("network/10.0.0.1/bandwidth").size());
      assertEquals(40e6, p.snapshot().lastSamples().get("network/10.0.0.1/bandwidth").value());
      assertTrue(p.snapshot().stats().get(0).stats().forecast().isAvailable());
    }
  }

  @Test
  void start_servesAndSchedulesWithConfiguredIntervals() throws Exception {
    writeLog(0, 3);
    Files.writeString(
        dir.resolve("diskstats"), "   8       0 sda 1 0 1 0 1 0 1 0 0 1 0 0 0 0 0 0 0\n");
    ProviderConfig c =
        ProviderConfig.load(
            config(
                String.join(
                    "\n",
                    "probes:",
                    "  disk:",
                    "    devices: [sda]",
                    "    diskstats: " + dir.resolve("diskstats"))));
    AtomicReference<String> body = new AtomicReference<>();
    try (Provider p = Provider.fromConfig(c, InstantSource.system())) {
      p.start();
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + p.httpPort() + "/v1/stats?sizeClass=10M"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      body.set(r.body());
      assertEquals(200, r.statusCode());
      assertEquals(Duration.ofSeconds(10), p.schedules().get("logs"));
      assertEquals(Duration.ofMinutes(5), p.schedules().get("probe-0-disk sda"));
      assertEquals(Duration.ofHours(1), p.schedules().get("purge"));
    }
    assertTrue(body.get().contains("\"count\":3"), body.get());
  }
}
