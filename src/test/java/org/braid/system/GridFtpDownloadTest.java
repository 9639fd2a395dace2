package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.GridFtpRangeSource;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.Validators;
import org.braid.testkit.GlobusGridFtpServer;
import org.braid.testkit.NginxServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Partial retrieves (ERET, and REST + RETR) from real globus-gridftp-server mirrors. */
class GridFtpDownloadTest {
  static final int SIZE = 5_000_000;
  @TempDir static Path dir;
  static Path data;
  static GlobusGridFtpServer a;
  static GlobusGridFtpServer b;
  static GlobusGridFtpServer noEret;
  static NginxServer nginx;

  @BeforeAll
  static void start() throws Exception {
    GlobusGridFtpServer.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path www = Files.createDirectories(dir.resolve("www"));
    data = www.resolve("data.bin");
    byte[] bytes = new byte[SIZE];
    new SplittableRandom(811).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(data)) {
      o.write(bytes);
    }
    Path logs = Files.createDirectories(dir.resolve("logs"));
    a = GlobusGridFtpServer.builder(logs).start();
    b = GlobusGridFtpServer.builder(logs).start();
    noEret = GlobusGridFtpServer.builder(logs).options("-disable-command-list", "ERET").start();
    nginx = NginxServer.builder(dir.resolve("nginx")).server(www, "2m").start();
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {a, b, noEret, nginx}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // best effort
      }
    }
  }

  @Test
  void probe_reportsSizeAndModificationTime() throws Exception {
    try (GridFtpRangeSource s = new GridFtpRangeSource(a.uri(data), SourceOptions.DEFAULT)) {
      Validators v = s.probe();
      assertEquals(SIZE, v.size());
      assertTrue(v.lastModified().matches("\\d{14}"), v.lastModified());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"adaptive", "single", "brute", "conservative", "aggressive"})
  void everyScheme_gridFtpAndNginx_yieldsByteIdenticalFile(String scheme) throws Exception {
    Path out = dir.resolve("out-" + scheme);
    DownloadReport r =
        Download.builder()
            .sources(List.of(a.uri(data), b.uri(data), nginx.uri(0, "data.bin")))
            .output(out)
            .scheme(Scheme.parse(scheme, 6))
            .journal(dir.resolve("journal.jsonl"))
            .build()
            .run();
    assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    assertEquals(SIZE, r.replicas().stream().mapToLong(p -> p.bytes()).sum());
    assertTrue(Files.readString(a.transferLog()).contains("TYPE=ERET"));
    assertTrue(Files.readString(dir.resolve("journal.jsonl")).contains("\"protocol\":\"gsiftp\""));
  }

  @Test
  void serverWithoutEret_fallsBackToRestRetr() throws Exception {
    Path out = dir.resolve("out-rest");
    DownloadReport r =
        Download.builder()
            .sources(List.of(noEret.uri(data)))
            .output(out)
            .scheme(Scheme.conservative(4))
            .journal(dir.resolve("journal.jsonl"))
            .build()
            .run();
    assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    assertEquals(4, r.replicas().get(0).blocks());
    String log = Files.readString(noEret.transferLog());
    assertTrue(log.contains("TYPE=RETR") && !log.contains("TYPE=ERET"), log);
  }

  @Test
  void missingFile_isDroppedWithServerMessage() throws Exception {
    Path out = dir.resolve("out-missing");
    DownloadReport r =
        Download.builder()
            .sources(List.of(a.uri(dir.resolve("nope.bin")), b.uri(data)))
            .output(out)
            .journal(dir.resolve("journal.jsonl"))
            .build()
            .run();
    assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    assertTrue(
        r.replicas().get(0).dropped().contains("SIZE refused: 550"), r.replicas().get(0).dropped());
  }
}
