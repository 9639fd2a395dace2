package org.braid.provider.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.braid.testkit.GlobusGridFtpServer;
import org.braid.testkit.RealComponent;
import org.braid.testkit.SharedDirs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Globus GridFTP server, anonymous on 127.0.0.1 with -log-transfer, moves files for
 * globus-url-copy (whole, partial ERET, parallel upload); the provider's figures must match what
 * this test computes from the server's log, everywhere they are published, across a log rotation
 * and a provider restart.
 */
class GridFtpEndToEndTest {

  private static final Pattern KV = Pattern.compile("([A-Za-z.]+)=(\\[[^\\]]*\\]|\\S+)");
  private static final DateTimeFormatter NL = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

  @TempDir Path tmp;
  private GlobusGridFtpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void realTransferLog_figuresMatchInStatsMetricsLdifAndAds_acrossRotationAndRestart()
      throws Exception {
    Path guc = RealComponent.executable("globus-url-copy", "globus-gass-copy-progs");
    Path root = SharedDirs.open(tmp, "e2e");
    Path data = SharedDirs.open(root, "data");
    Path out = SharedDirs.open(root, "out");
    Path logs = SharedDirs.open(root, "logs");
    Path up = SharedDirs.open(root, "up");
    Random rnd = new Random(42);
    for (Map.Entry<String, Integer> f :
        Map.of("a.bin", 2_000_000, "b.bin", 300_000, "c.bin", 55_000_000).entrySet()) {
      byte[] b = new byte[f.getValue()];
      rnd.nextBytes(b);
      Files.write(data.resolve(f.getKey()), b);
    }
    Path log = logs.resolve("gridftp-transfer.log");
    server = GlobusGridFtpServer.builder(logs).transferLog(log).debugLevels("error").start();
    int port = server.port();
    String url = "ftp://127.0.0.1:" + port;

    // Batch 1: two whole reads, one partial read (ERET), a 55 MB read, a 4-stream upload.
    copy(guc, List.of(url + data.resolve("a.bin"), "file://" + out.resolve("a1")));
    copy(guc, List.of(url + data.resolve("a.bin"), "file://" + out.resolve("a2")));
    copy(
        guc,
        List.of(
            "-off",
            "1000",
            "-len",
            "50000",
            url + data.resolve("a.bin"),
            "file://" + out.resolve("a3")));
    copy(guc, List.of(url + data.resolve("c.bin"), "file://" + out.resolve("c1")));
    copy(guc, List.of("-p", "4", "file://" + data.resolve("b.bin"), url + up.resolve("b1.bin")));
    // globus-url-copy writes the range at its offset: 1000 + 50000 bytes.
    assertEquals(51_000, Files.size(out.resolve("a3")), "partial retrieve");
    waitForLines(List.of(log), 5);

    Path db = tmp.resolve("db/provider.db");
    Path yaml = tmp.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: gridftp.e2e.test",
            "url: gsiftp://127.0.0.1:" + port,
            "database: " + db,
            "http: {port: 0}",
            "logs:",
            "  - {path: " + log + ", format: gridftp}",
            ""));
    ProviderConfig config = ProviderConfig.load(yaml);
    try (Provider p = Provider.fromConfig(config, InstantSource.system())) {
      p.start();
      p.refresh();
      Map<String, PublishedFigures.Expected> expected = expected(List.of(log));
      assertEquals(3, expected.get("127.0.0.1|read|10M").count, expected.keySet().toString());
      assertEquals(1, expected.get("127.0.0.1|read|100M").count);
      assertEquals(1, expected.get("127.0.0.1|write|10M").count);
      PublishedFigures.assertPublished(p, "/", expected);
    }

    // Rotation by rename while the provider is down, then more transfers, then a restart.
    Path rotated = logs.resolve("gridftp-transfer.log.1");
    Files.move(log, rotated);
    copy(guc, List.of(url + data.resolve("b.bin"), "file://" + out.resolve("b2")));
    copy(
        guc,
        List.of(
            "-off",
            "0",
            "-len",
            "1000",
            url + data.resolve("b.bin"),
            "file://" + out.resolve("b3")));
    List<Path> all = new ArrayList<>(List.of(rotated));
    waitForLines(List.of(rotated, log), 7);
    if (Files.exists(log)) {
      all.add(log);
    }
    try (Provider p = Provider.fromConfig(config, InstantSource.system())) {
      p.start();
      p.refresh();
      p.refresh();
      Map<String, PublishedFigures.Expected> expected = expected(all);
      long total = expected.values().stream().mapToLong(e -> e.count).sum();
      assertEquals(7, total);
      assertEquals(7, p.store().transferCount());
      PublishedFigures.assertPublished(p, "/", expected);
    }
  }

  /** Expectations computed from the raw log text, independently of the provider's parser. */
  static Map<String, PublishedFigures.Expected> expected(List<Path> files) throws IOException {
    Map<String, PublishedFigures.Expected> m = PublishedFigures.expectedMap();
    for (Path f : files) {
      for (String line : Files.readAllLines(f)) {
        if (line.isBlank()) {
          continue;
        }
        Map<String, String> kv = new java.util.HashMap<>();
        Matcher x = KV.matcher(line);
        while (x.find()) {
          kv.put(x.group(1), x.group(2));
        }
        assertEquals("226", kv.get("CODE"), line);
        String type = kv.get("TYPE");
        String op = type.equals("RETR") || type.equals("ERET") ? "read" : "write";
        long size = Long.parseLong(kv.get("NBYTES"));
        Duration d = Duration.between(time(kv.get("START")), time(kv.get("DATE")));
        double secs = Math.max(d.getSeconds() + d.getNano() / 1e9, 1e-6);
        String peer = kv.get("DEST").replaceAll("[\\[\\]]", "");
        m.computeIfAbsent(
                PublishedFigures.key(peer, op, size), k -> new PublishedFigures.Expected())
            .add(size, size / secs);
      }
    }
    return m;
  }

  private static Instant time(String s) {
    LocalDateTime t = LocalDateTime.parse(s.substring(0, 14), NL);
    long micros = Long.parseLong(s.substring(15));
    return t.toInstant(ZoneOffset.UTC).plusNanos(micros * 1000);
  }

  private static void copy(Path guc, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(guc.toString());
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "globus-url-copy timed out");
    assertEquals(0, p.exitValue(), "globus-url-copy " + args + ": " + output);
  }

  /** The server writes the log line right after the transfer; wait until all are there. */
  private static void waitForLines(List<Path> files, int n) throws Exception {
    for (int i = 0; i < 200; i++) {
      int lines = 0;
      for (Path f : files) {
        if (Files.exists(f)) {
          lines += (int) Files.readAllLines(f).stream().filter(l -> !l.isBlank()).count();
        }
      }
      if (lines >= n) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IOException("transfer log did not reach " + n + " lines");
  }
}
