package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Adler32;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.RangeSource;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;
import org.braid.testkit.GlobusGridFtpServer;
import org.braid.testkit.XrootdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checksums published by real grid servers (GridFTP {@code CKSM}, XRootD's checksum query) catch a
 * replica holding another version of the file with the same size before any of its bytes is mixed
 * in. Fails under CI=true when globus-gridftp-server or xrootd is missing, else skips.
 */
class GridChecksumSystemTest {
  static final int SIZE = 3_000_000;
  @TempDir static Path dir;
  static Path good;
  static Path other;
  static byte[] goodBytes;
  static GlobusGridFtpServer gridftp;
  static XrootdServer xrootd;

  @BeforeAll
  static void start() throws Exception {
    GlobusGridFtpServer.binary();
    XrootdServer.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    good = file("good", 20);
    other = file("other", 21);
    goodBytes = Files.readAllBytes(good.resolve("data.bin"));
    gridftp = GlobusGridFtpServer.builder(Files.createDirectories(dir.resolve("logs"))).start();
    xrootd =
        XrootdServer.builder(dir.resolve("xrootd"), dir)
            .directives("xrootd.chksum adler32")
            .start();
  }

  private static Path file(String name, long seed) throws Exception {
    Path d = Files.createDirectories(dir.resolve(name));
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
    byte[] b = new byte[SIZE];
    new SplittableRandom(seed).nextBytes(b);
    Path f = d.resolve("data.bin");
    try (OutputStream o = Files.newOutputStream(f)) {
      o.write(b);
    }
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    return d;
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {gridftp, xrootd}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // best effort
      }
    }
  }

  private static String adler32(byte[] b) {
    Adler32 a = new Adler32();
    a.update(b);
    return String.format("%08x", a.getValue());
  }

  @Test
  void probes_publishTheServersAdler32() throws Exception {
    Checksum want = new Checksum("adler32", adler32(goodBytes));
    try (RangeSource g =
            RangeSource.of(gridftp.uri(good.resolve("data.bin")), SourceOptions.DEFAULT);
        RangeSource x =
            RangeSource.of(xrootd.uri(good.resolve("data.bin")), SourceOptions.DEFAULT)) {
      assertEquals(List.of(want), g.probe().checksums());
      assertEquals(List.of(want), x.probe().checksums());
    }
  }

  @Test
  void otherVersionOfTheSameSize_isDroppedBeforeMixing_inRepeatedRuns() throws Exception {
    for (int run = 0; run < 4; run++) {
      Path out = dir.resolve("out-" + run);
      // the other version first: the majority of published checksums decides, not the order
      DownloadReport r =
          Download.builder()
              .sources(
                  List.of(
                      gridftp.uri(other.resolve("data.bin")),
                      xrootd.uri(good.resolve("data.bin")),
                      gridftp.uri(good.resolve("data.bin"))))
              .output(out)
              .scheme(Scheme.parse(run % 2 == 0 ? "adaptive" : "brute", 6))
              .build()
              .run();
      assertArrayEquals(goodBytes, Files.readAllBytes(out), "run " + run + " mixed the versions");
      String dropped = r.replicas().get(0).dropped();
      assertNotNull(dropped, "run " + run);
      assertTrue(dropped.contains("another version of the file"), dropped);
      assertEquals(0, r.replicas().get(0).bytes());
    }
  }
}
