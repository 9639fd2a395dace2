package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The output is safe whatever is at its name: devices and directories are refused before anything
 * is fetched, links planted at the temporary and control files' names are never followed, a disk
 * too small is refused up front, and a disk that fills up mid-run leaves a clean, resumable state.
 */
@Timeout(120)
class OutputSafetyTest {
  static final int SIZE = 2_000_000;
  @TempDir Path dir;
  Path src;
  byte[] data;

  @BeforeEach
  void setUp() throws Exception {
    src = TestFiles.random(dir, "data.bin", SIZE, 5);
    data = Files.readAllBytes(src);
  }

  private Download download(Mirror m, Path out) {
    return Download.builder()
        .sources(List.of(m.uri()))
        .output(out)
        .journal(null)
        .sourceOptions(SourceOptions.builder().stallTimeout(Duration.ofSeconds(2)).build())
        .build();
  }

  @Test
  void deviceOutput_isRefusedBeforeAnythingIsFetched() throws Exception {
    Path dev = Path.of("/dev/null");
    try (Mirror m = Mirror.builder(src).start()) {
      DownloadException e = assertThrows(DownloadException.class, () -> download(m, dev).run());
      assertEquals(DownloadException.Kind.OUTPUT, e.kind());
      assertTrue(e.getMessage().contains("/dev/null: it is a character device"), e.getMessage());
      assertEquals(0, m.requests());
    }
    assertFalse(Files.isRegularFile(dev, LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(Path.of("/dev/null.part")));
  }

  @Test
  void directoryOutput_isRefusedBeforeAnythingIsFetched() throws Exception {
    Path d = Files.createDirectory(dir.resolve("outdir"));
    try (Mirror m = Mirror.builder(src).start()) {
      DownloadException e = assertThrows(DownloadException.class, () -> download(m, d).run());
      assertEquals(DownloadException.Kind.OUTPUT, e.kind());
      assertTrue(e.getMessage().contains("it is a directory"), e.getMessage());
      assertEquals(0, m.requests());
    }
    assertFalse(Files.exists(dir.resolve("outdir.part")));
  }

  @Test
  void missingDirectory_isRefusedBeforeAnythingIsFetched() throws Exception {
    try (Mirror m = Mirror.builder(src).start()) {
      DownloadException e =
          assertThrows(
              DownloadException.class, () -> download(m, dir.resolve("nope/out.bin")).run());
      assertEquals(DownloadException.Kind.OUTPUT, e.kind());
      assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
      assertEquals(0, m.requests());
    }
  }

  @Test
  void linksPlantedAtTheTemporaryNames_areNeverFollowed() throws Exception {
    Path out = dir.resolve("out.bin");
    byte[] precious = "precious".getBytes();
    Path[] victims = new Path[3];
    String[] planted = {"out.bin.braid-ctl.tmp", "out.bin.braid-ctl", "out.bin.part"};
    for (int i = 0; i < 3; i++) {
      victims[i] = Files.write(dir.resolve("victim" + i), precious);
      Files.createSymbolicLink(dir.resolve(planted[i]), victims[i]);
    }
    // slow enough for a few checkpoints (one a second), each through the .tmp name
    try (Mirror m = Mirror.builder(src).rate(800_000).start()) {
      download(m, out).run();
    }
    assertArrayEquals(data, Files.readAllBytes(out));
    for (Path v : victims) {
      assertArrayEquals(precious, Files.readAllBytes(v), v.toString());
    }
    for (String p : planted) {
      assertFalse(Files.exists(dir.resolve(p), LinkOption.NOFOLLOW_LINKS), p);
    }
  }

  @Test
  void linkPlantedAtTheTmpNameDuringARun_isNeverFollowed() throws Exception {
    Path out = dir.resolve("out.bin");
    Path victim = Files.write(dir.resolve("victim"), "precious".getBytes());
    Path tmp = dir.resolve("out.bin.braid-ctl.tmp");
    try (Mirror m = Mirror.builder(src).rate(700_000).start()) {
      Thread planter =
          new Thread(
              () -> {
                // keep planting the link while the download runs
                long end = System.nanoTime() + 4_000_000_000L;
                while (System.nanoTime() < end) {
                  try {
                    Files.createSymbolicLink(tmp, victim);
                  } catch (Exception e) {
                    // there already: the download's own file or our link
                  }
                  Thread.onSpinWait();
                }
              });
      planter.start();
      try {
        download(m, out).run();
      } catch (DownloadException e) {
        // a checkpoint that met the link fails rather than follow it; that is all we ask here
      }
      planter.join();
    }
    assertArrayEquals("precious".getBytes(), Files.readAllBytes(victim));
  }

  @Test
  void diskTooSmall_isRefusedUpFrontNamingThePathAndTheBytesMissing() throws Exception {
    try (SmallDisk disk = SmallDisk.mount(dir, 1);
        Mirror m = Mirror.builder(src).start()) {
      Path out = disk.dir.resolve("out.bin");
      DownloadException e = assertThrows(DownloadException.class, () -> download(m, out).run());
      assertEquals(DownloadException.Kind.DISK, e.kind());
      assertTrue(
          e.getMessage().contains("not enough free space for " + out + ".part"), e.getMessage());
      assertTrue(e.getMessage().contains("missing"), e.getMessage());
      assertEquals(1, m.requests(), "only the probe");
      try (var files = Files.list(disk.dir)) {
        assertEquals(List.of(), files.toList());
      }
    }
  }

  @Test
  void diskFullMidRun_leavesACleanResumableState() throws Exception {
    try (SmallDisk disk = SmallDisk.mount(dir, 4);
        Mirror m = Mirror.builder(src).rate(1_000_000).start()) {
      Path out = disk.dir.resolve("out.bin");
      Path ctl = disk.dir.resolve("out.bin.braid-ctl");
      Thread filler =
          new Thread(
              () -> {
                try {
                  // once a checkpoint is on disk, take all the space that is left
                  while (!Files.exists(ctl)) {
                    Thread.sleep(20);
                  }
                  disk.fill("filler");
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      filler.start();
      DownloadException e = assertThrows(DownloadException.class, () -> download(m, out).run());
      filler.join();
      assertEquals(DownloadException.Kind.DISK, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
      assertFalse(Files.exists(out));
      assertTrue(Files.isRegularFile(ctl));
      assertFalse(Files.exists(disk.dir.resolve("out.bin.braid-ctl.tmp")));
      Files.delete(disk.dir.resolve("filler"));
      DownloadReport r = download(m, out).run();
      assertTrue(r.resumedBytes() > 0, "resumed " + r.resumedBytes());
      assertArrayEquals(data, Files.readAllBytes(out));
      try (var files = Files.list(disk.dir)) {
        assertEquals(List.of(out), files.toList());
      }
    }
  }
}
