package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadException;
import org.braid.coalloc.DownloadReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas of the same path and size holding different versions, served by a real server that
 * publishes checksums ({@code grid_server.py --digests}: RFC 3230 Digest with adler32 as Rucio and
 * FTS use it, RFC 9530 Repr-Digest; Braid checks the strongest, sha-256): the other version is
 * dropped before any byte is mixed, and a replica that publishes nothing cannot slip its bytes into
 * the file either.
 */
class PublishedChecksumSystemTest {
  static final int SIZE = 4_000_000;
  static final int RUNS = 10;
  @TempDir static Path dir;
  static byte[] v1;
  static byte[] v2;
  static GridServer a;
  static GridServer b;
  static GridServer c;
  static GridServer silent;

  @BeforeAll
  static void start() throws Exception {
    v1 = new byte[SIZE];
    v2 = new byte[SIZE];
    new SplittableRandom(1).nextBytes(v1);
    new SplittableRandom(2).nextBytes(v2);
    Path r1 = write("v1", v1);
    Path r2 = write("v2", v2);
    a = GridServer.start(dir.resolve("a"), r1, "--digests");
    b = GridServer.start(dir.resolve("b"), r2, "--digests");
    c = GridServer.start(dir.resolve("c"), r1, "--digests");
    silent = GridServer.start(dir.resolve("silent"), r2);
  }

  static Path write(String name, byte[] content) throws IOException {
    Path root = Files.createDirectories(dir.resolve(name));
    try (OutputStream o = Files.newOutputStream(root.resolve("data.bin"))) {
      o.write(content);
    }
    return root;
  }

  @AfterAll
  static void stop() {
    for (GridServer s : new GridServer[] {a, b, c, silent}) {
      if (s != null) {
        s.close();
      }
    }
  }

  static DownloadReport get(Path out, URI... uris) throws IOException {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .journal(null)
        .resume(false)
        .build()
        .run();
  }

  @Test
  void otherVersionPublishingItsChecksum_droppedBeforeAnyByte_noMixedFileIn10Runs()
      throws Exception {
    int mixed = 0;
    for (int i = 0; i < RUNS; i++) {
      Path out = dir.resolve("out-" + i);
      int bBefore = b.requests().size();
      // the other version listed first and second: without checksums it would take part
      DownloadReport r = get(out, b.uri("data.bin"), a.uri("data.bin"), c.uri("data.bin"));
      byte[] got = Files.readAllBytes(out);
      if (!Arrays.equals(got, v1)) {
        mixed++;
      }
      assertTrue(
          r.replicas().get(0).dropped().contains("another version of the file: publishes sha-256"),
          r.replicas().get(0).toString());
      assertEquals(0, r.replicas().get(0).bytes());
      assertEquals(
          bBefore + 1, b.requests().size(), "only the probe was sent to the other version");
    }
    assertEquals(0, mixed, "mixed files in " + RUNS + " runs");
  }

  @Test
  void otherVersionPublishingNothing_neverMixedIn10Runs() throws Exception {
    int mixed = 0;
    int failed = 0;
    for (int i = 0; i < RUNS; i++) {
      Path out = dir.resolve("silent-" + i);
      try {
        get(out, silent.uri("data.bin"), a.uri("data.bin"));
        assertArrayEquals(v1, Files.readAllBytes(out)); // only if it took no byte of v2
      } catch (DownloadException e) {
        failed++;
        assertTrue(
            e.getMessage().startsWith("sha-256 checksum mismatch: the replicas publish"),
            e.getMessage());
        assertFalse(Files.exists(out));
      }
      if (Files.exists(out) && !Arrays.equals(Files.readAllBytes(out), v1)) {
        mixed++;
      }
    }
    assertEquals(0, mixed);
    assertTrue(failed > 0, "the silent replica of the other version never took part");
  }
}
