package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.braid.cli.mirror.Mirror;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.PredictedRate;
import org.braid.coalloc.Scheme;
import org.braid.testkit.NginxServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Downloads from real nginx mirrors on 127.0.0.1 with every scheme. */
class NginxDownloadTest {
  static final int SIZE = 6_000_000;
  @TempDir static Path dir;
  static Path data;
  static NginxServer nginx;
  static String sha;

  @BeforeAll
  static void start() throws Exception {
    Path root = Files.createDirectories(dir.resolve("www"));
    data = root.resolve("data.bin");
    byte[] b = new byte[SIZE];
    new SplittableRandom(2002).nextBytes(b);
    try (OutputStream o = Files.newOutputStream(data)) {
      o.write(b);
    }
    sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    nginx =
        NginxServer.builder(dir.resolve("nginx"))
            .server(root, "4m")
            .server(root, "2m")
            .server(root, "1m")
            .start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (nginx != null) {
      nginx.close();
    }
  }

  static List<URI> mirrors() {
    return List.of(nginx.uri(0, "data.bin"), nginx.uri(1, "data.bin"), nginx.uri(2, "data.bin"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"adaptive", "single", "brute", "history", "conservative", "aggressive"})
  void everyScheme_yieldsByteIdenticalFile(String scheme) throws Exception {
    Path out = dir.resolve("out-" + scheme);
    DownloadReport r =
        Download.builder()
            .sources(mirrors())
            .output(out)
            .scheme(Scheme.parse(scheme, 5))
            .predictedRates(
                List.of(
                    new PredictedRate(mirrors().get(0), 4_000_000),
                    new PredictedRate(mirrors().get(1), 2_000_000),
                    new PredictedRate(mirrors().get(2), 1_000_000)))
            .checksums(List.of(new Checksum("sha256", sha)))
            .journal(dir.resolve("journal.jsonl"))
            .build()
            .run();
    assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    assertEquals(sha, r.sha256());
    long sum = r.replicas().stream().mapToLong(p -> p.bytes()).sum();
    assertEquals(SIZE, sum);
  }

  @Test
  void nginxPlusDyingMirror_outputIntact() throws Exception {
    // Every source gets a first block at the start (about 48 KiB here), so a mirror that dies
    // after 10 KB fails inside it whatever the fast nginx mirrors do afterwards.
    try (Mirror dying =
        Mirror.builder(data).rate(8e6).fault(Mirror.Fault.DIE).faultAfter(10_000).start()) {
      Path out = dir.resolve("out-dying");
      DownloadReport r =
          Download.builder()
              .sources(List.of(dying.uri(), nginx.uri(0, "data.bin"), nginx.uri(1, "data.bin")))
              .output(out)
              .journal(dir.resolve("journal.jsonl"))
              .build()
              .run();
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
      assertTrue(r.replicas().get(0).failures() >= 1, r.replicas().toString());
    }
  }

  @Test
  void missingFileOnOneMirror_isDroppedWith404() throws Exception {
    Path out = dir.resolve("out-404");
    DownloadReport r =
        Download.builder()
            .sources(List.of(nginx.uri(0, "nope.bin"), nginx.uri(1, "data.bin")))
            .output(out)
            .journal(dir.resolve("journal.jsonl"))
            .build()
            .run();
    assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    assertEquals(nginx.uri(0, "nope.bin") + ": HTTP 404 Not Found", r.replicas().get(0).dropped());
  }
}
