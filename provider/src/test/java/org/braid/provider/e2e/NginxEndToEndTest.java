package org.braid.provider.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
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
  private Process nginx;

  @AfterEach
  void stop() throws InterruptedException {
    if (nginx != null) {
      nginx.destroy();
      if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
        nginx.destroyForcibly();
      }
    }
  }

  @Test
  void realAccessLog_figuresMatchInStatsMetricsLdifAndAds_acrossRotationAndRestart()
      throws Exception {
    Path nginxBin = RealServers.require("nginx", "nginx-light");
    Path root = RealServers.openDir(tmp, "e2e");
    Path data = RealServers.openDir(root, "data");
    Path logs = RealServers.openDir(root, "logs");
    Path temp = RealServers.openDir(root, "temp");
    Random rnd = new Random(7);
    for (Map.Entry<String, Integer> f :
        Map.of("a.bin", 2_000_000, "my file.bin", 300_000, "c.bin", 55_000_000).entrySet()) {
      byte[] b = new byte[f.getValue()];
      rnd.nextBytes(b);
      Files.write(data.resolve(f.getKey()), b);
    }
    Path snippet = Path.of("..", "docs", "provider-nginx.conf").toAbsolutePath().normalize();
    assertTrue(Files.isRegularFile(snippet), "documented format at " + snippet);
    int port = RealServers.freePort();
    Path log = logs.resolve("braid-access.log");
    Path conf = root.resolve("nginx.conf");
    Files.writeString(
        conf,
        String.join(
            "\n",
            "worker_processes 1;",
            "daemon off;",
            "pid " + root.resolve("nginx.pid") + ";",
            "error_log " + logs.resolve("error.log") + " warn;",
            "events { worker_connections 64; }",
            "http {",
            "  include " + snippet + ";",
            "  access_log " + log + " braid;",
            "  client_body_temp_path " + temp.resolve("body") + ";",
            "  proxy_temp_path " + temp.resolve("proxy") + ";",
            "  fastcgi_temp_path " + temp.resolve("fastcgi") + ";",
            "  uwsgi_temp_path " + temp.resolve("uwsgi") + ";",
            "  scgi_temp_path " + temp.resolve("scgi") + ";",
            "  server { listen 127.0.0.1:" + port + "; root " + data + "; }",
            "}",
            ""));
    nginx =
        new ProcessBuilder(
                nginxBin.toString(),
                "-p",
                root.toString(),
                "-e",
                logs.resolve("error.log").toString(),
                "-c",
                conf.toString())
            .redirectErrorStream(true)
            .redirectOutput(logs.resolve("stdout.txt").toFile())
            .start();
    waitForPort(port);
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
      Map<String, RealServers.Expected> expected = expected(List.of(log));
      assertEquals(5, expected.get("127.0.0.1|read|10M").count, expected.keySet().toString());
      assertEquals(1, expected.get("127.0.0.1|read|100M").count);
      assertEquals(
          2_000_000 * 2 + 50_000 + 1_000 + 65_536, expected.get("127.0.0.1|read|10M").bytes);
      assertEquals(
          List.of("network/127.0.0.1/bandwidth", "network/127.0.0.1/connect_seconds"),
          p.store().seriesNames());
      RealServers.assertPublished(p, "/", expected);
    }

    // Rotation as logrotate does it for nginx: rename, then USR1 (nginx -s reopen) makes nginx
    // reopen its logs.
    Path rotated = logs.resolve("braid-access.log.1");
    Files.move(log, rotated);
    get(http, base + "/a.bin", "bytes=0-99", 206); // still written to the renamed file
    Process reopen =
        new ProcessBuilder(
                nginxBin.toString(),
                "-p",
                root.toString(),
                "-e",
                logs.resolve("error.log").toString(),
                "-c",
                conf.toString(),
                "-s",
                "reopen")
            .redirectErrorStream(true)
            .start();
    assertTrue(reopen.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, reopen.exitValue(), new String(reopen.getInputStream().readAllBytes()));
    waitForFile(log);
    get(http, base + "/my%20file.bin", null, 200); // written to the new file
    waitForLines(List.of(rotated, log), 10);
    // Restart without the probe, so that no probe request races with the counting below.
    String withoutProbe = Files.readString(yaml);
    Files.writeString(yaml, withoutProbe.substring(0, withoutProbe.indexOf("probes:")));
    try (Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system())) {
      p.start();
      p.refresh();
      p.refresh();
      Map<String, RealServers.Expected> expected = expected(List.of(rotated, log));
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
      RealServers.assertPublished(p, "/", expected);
    }
  }

  /** Expectations from the raw access log: GET answered 200 or 206, bytes over request time. */
  static Map<String, RealServers.Expected> expected(List<Path> files) throws IOException {
    Map<String, RealServers.Expected> m = RealServers.expectedMap();
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
                RealServers.key(x.group(3), "read", size), k -> new RealServers.Expected())
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

  private static void waitForPort(int port) throws Exception {
    for (int i = 0; i < 200; i++) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(50); // nginx is starting
      }
    }
    throw new IOException("nginx did not listen on " + port);
  }

  private static void waitForFile(Path f) throws Exception {
    for (int i = 0; i < 200 && !Files.exists(f); i++) {
      Thread.sleep(50); // nginx reopens its logs asynchronously after USR1
    }
    assertTrue(Files.exists(f), "nginx did not reopen " + f);
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
