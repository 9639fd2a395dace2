package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Adler32;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replica dropped at the probe (here: it publishes another version's checksum) takes no part in
 * any scheme: a static plan (brute force) once reserved it a share and then waited for it forever.
 */
class DroppedAtProbeTest {
  static final int SIZE = 600_000;
  @TempDir Path dir;

  private static String adler(Path p) throws Exception {
    Adler32 a = new Adler32();
    a.update(Files.readAllBytes(p));
    return String.format("%08x", a.getValue());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"brute", "single", "conservative", "aggressive", "adaptive"})
  @Timeout(60)
  void otherVersionFirst_everyScheme_finishesFromTheOthers(String scheme) throws Exception {
    Path v1 = TestFiles.random(dir, "v1.bin", SIZE, 31);
    Path v2 = TestFiles.random(dir, "v2.bin", SIZE, 32);
    try (Mirror old = Mirror.builder(v2).header("Digest", "adler32=" + adler(v2)).start();
        Mirror a = Mirror.builder(v1).header("Digest", "adler32=" + adler(v1)).start();
        Mirror b = Mirror.builder(v1).header("Digest", "adler32=" + adler(v1)).start()) {
      Path out = dir.resolve("out.bin");
      DownloadReport r =
          Download.builder()
              .sources(List.of(old.uri(), a.uri(), b.uri()))
              .output(out)
              .scheme(Scheme.parse(scheme, 4))
              .journal(null)
              .build()
              .run();
      assertArrayEquals(Files.readAllBytes(v1), Files.readAllBytes(out));
      assertTrue(r.replicas().get(0).dropped().contains("another version"), r.toString());
    }
  }
}
