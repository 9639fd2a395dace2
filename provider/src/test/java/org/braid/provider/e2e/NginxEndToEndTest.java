package org.braid.provider.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.braid.testkit.NginxServer;
import org.braid.testkit.SharedDirs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real nginx on 127.0.0.1 with the documented log_format (docs/provider-nginx.conf, included as
 * is): whole and range GETs, a 404 and a HEAD; the provider's figures must match what this test
 * computes from nginx's access log, in /v1/stats, /metrics, LDIF and the ads, across a rotation
 * (rename + reopen signal) and a provider restart.
 */
class NginxEndToEndTest {

  private static final Pattern LINE =
      Pattern.compile(
          "(\\d+\\.\\d{3}) (\\d+\\.\\d{3}) (\\S+) (\\S+) (\\S+) \"([^\"]*)\" (\\d{3}) (\\d+) (\\d+) \"([^\"]*)\"");

  @TempDir Path tmp;
  private NginxServer nginx;

  @AfterEach
  void stop() {
    if (nginx != null) {
      nginx.close();
    }
  }

  @Test
  void realAccessLog_figuresMatchInStatsMetricsLdifAndAds_acrossRotationAndRestart()
      throws Exception {
    Path root = SharedDirs.open(tmp, "e2e");
    Path data = SharedDirs.open(root, "data");
    Path logs = SharedDirs.open(root, "logs");
    Random rnd = new Random(7);
    for (Map.Entry<String, Integer> f :
        Map.of("a.bin", 2_000_000, "my file.bin", 300_000, "c.bin", 55_000_000).entrySet()) {
      byte[] b = new byte[f.getValue()];
      rnd.nextBytes(b);
      Files.write(data.resolve(f.getKey()), b);
    }
    Path snippet = Path.of("..", "docs", "provider-nginx.conf").toAbsolutePath().normalize();
    assertTrue(Files.isRegularFile(snippet), "documented format at " + snippet);
    Path log = logs.resolve("braid-access.log");
    nginx =
        NginxServer.builder(root.resolve("nginx"))
            .http("include " + snippet + ";")
            .accessLog(log, "braid")
            .server(data)
            .start();
    int port = nginx.port(0);
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + port;

    get(http, base + "/a.bin", null, 200);
    get(http, base + "/a.bin", null, 200);
    get(http, base + "/a.bin", "bytes=1000-50999", 206);
    get(http, base + "/my%20file.bin", "bytes=0-999", 206);
    get(http, base + "/c.bin", null, 200);
    get(http, base + "/missing.bin", null, 404);
    http.send(
        HttpRequest.newBuilder(URI.create(base + "/a.bin"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.discarding());
    waitForLines(List.of(log), 7);

    Path yaml = tmp.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: mirror.e2e.test",
            "url: http://127.0.0.1:" + port,
            "database: " + tmp.resolve("db/provider.db"),
            "http: {port: 0}",
            "logs:",
            "  - {path: " + log + ", format: nginx}",
            "probes:",
            "  network:",
            "    peers:",
            "      - {address: 127.0.0.1, url: \"" + base + "/a.bin\"}",
            ""));
    ProviderConfig config = ProviderConfig.load(yaml);
    try (Provider p = Provider.fromConfig(config, InstantSource.system())) {
      p.start();
      // Started, the schedule runs the network probe at once (then every 5 minutes): its 64 KiB
      // range GET goes to the real nginx and shows in the access log too.
      List<org.braid.infoprovider.store.Point> bw = List.of();
      for (int i = 0; i < 200 && bw.isEmpty(); i++) {
        Thread.sleep(50); // waiting for the scheduler thread, not for a timer
        bw = p.store().series("network/127.0.0.1/bandwidth");
      }
      assertEquals(1, bw.size());
      assertTrue(bw.get(0).value() > 0, bw.toString());
      waitForLines(List.of(log), 8);
      assertTrue(
          Files.readAllLines(log)
              .get(7)
              .endsWith(
                  " GET \"/a.bin\" 206 65536 "
                      + Files.readAllLines(log).get(7).split(" ")[8]
                      + " \"bytes=0-65535\""),
          Files.readAllLines(log).get(7));
      p.refresh();
      Map<String, PublishedFigures.Expected> expected = expected(List.of(log));
      assertEquals(5, expected.get("127.0.0.1|read|10M").count, expected.keySet().toString());
      assertEquals(1, expected.get("127.0.0.1|read|100M").count);
      assertEquals(
          2_000_000 * 2 + 50_000 + 1_000 + 65_536, expected.get("127.0.0.1|read|10M").bytes);
      assertEquals(
          List.of("network/127.0.0.1/bandwidth", "network/127.0.0.1/connect_seconds"),
          p.store().seriesNames());
      PublishedFigures.assertPublished(p, "/", expected);
    }

    // Rotation as logrotate does it for nginx: rename, then USR1 (nginx -s reopen) makes nginx
    // reopen its logs.
    Path rotated = logs.resolve("braid-access.log.1");
    Files.move(log, rotated);
    get(http, base + "/a.bin", "bytes=0-99", 206); // still written to the renamed file
    nginx.reopenLogs();
    get(http, base + "/my%20file.bin", null, 200); // written to the new file
    waitForLines(List.of(rotated, log), 10);
    // Restart without the probe, so that no probe request races with the counting below.
    String withoutProbe = Files.readString(yaml);
    Files.writeString(yaml, withoutProbe.substring(0, withoutProbe.indexOf("probes:")));
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      p.start();
      p.refresh();
      p.refresh();
      Map<String, PublishedFigures.Expected> expected = expected(List.of(rotated, log));
      assertEquals(8, expected.values().stream().mapToLong(e -> e.count).sum());
      assertEquals(
          8,
          p.store().transferCount(),
          () -> {
            try {
              return p.store().positions().toString();
            } catch (IOException e) {
              return e.toString();
            }
          });
      PublishedFigures.assertPublished(p, "/", expected);
    }
  }

  /** Expectations from the raw access log: GET answered 200 or 206, bytes over request time. */
  static Map<String, PublishedFigures.Expected> expected(List<Path> files) throws IOException {
    Map<String, PublishedFigures.Expected> m = PublishedFigures.expectedMap();
    for (Path f : files) {
      for (String line : Files.readAllLines(f)) {
        Matcher x = LINE.matcher(line);
        assertTrue(x.matches(), "not the documented format: " + line);
        String status = x.group(7);
        if (!x.group(5).equals("GET") || !(status.equals("200") || status.equals("206"))) {
          continue;
        }
        long size = Long.parseLong(x.group(8));
        double secs = Math.max(Double.parseDouble(x.group(2)), 0.001);
        m.computeIfAbsent(
                PublishedFigures.key(x.group(3), "read", size),
                k -> new PublishedFigures.Expected())
            .add(size, size / secs);
      }
    }
    return m;
  }

  private static void get(HttpClient http, String url, String range, int status) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (range != null) {
      b.header("Range", range);
    }
    HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(status, r.statusCode(), url);
  }

  private static void waitForLines(List<Path> files, int n) throws Exception {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      all.clear();
      for (Path f : files) {
        if (Files.exists(f)) {
          all.addAll(Files.readAllLines(f));
        }
      }
      if (all.size() >= n) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IOException("access log did not reach " + n + " lines: " + all);
  }
}
