package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DownloadSchemesTest {
  @TempDir Path dir;

  @Test
  void download_everyScheme_yieldsIdenticalFile() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", 8_000_000, 1);
    try (Mirror a = Mirror.builder(src).rate(8e6).start();
        Mirror b = Mirror.builder(src).rate(4e6).start();
        Mirror c = Mirror.builder(src).rate(1e6).start()) {
      for (String s : List.of("adaptive", "single", "brute", "conservative", "aggressive")) {
        Path out = dir.resolve("out-" + s);

        DownloadReport r =
            Download.builder()
                .sources(List.of(a.uri(), b.uri(), c.uri()))
                .output(out)
                .scheme(Scheme.parse(s, 5))
                .journal(dir.resolve("journal.jsonl"))
                .build()
                .run();

        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out), s);
        assertEquals(8_000_000, r.bytes());
      }
    }
  }

  @Test
  void emptyFile_yieldsEmptyVerifiedOutput() throws Exception {
    Path src = TestFiles.random(dir, "empty.bin", 0, 1);
    try (Mirror a = Mirror.builder(src).start()) {
      Path out = dir.resolve("out-empty");
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), src.toUri()))
              .output(out)
              .journal(null)
              .build()
              .run();
      assertEquals(0, Files.size(out));
      assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", r.sha256());
    }
  }

  @Test
  void httpAndFileSources_mix() throws Exception {
    Path src = TestFiles.random(dir, "mix.bin", 3_000_000, 2);
    try (Mirror a = Mirror.builder(src).rate(2e6).start()) {
      Path out = dir.resolve("out-mix");
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), src.toUri()))
              .output(out)
              .journal(null)
              .build()
              .run();
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertEquals(3_000_000, r.replicas().get(0).bytes() + r.replicas().get(1).bytes());
    }
  }
}
