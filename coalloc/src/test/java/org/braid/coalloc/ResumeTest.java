package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumeTest {
  static final int SIZE = 4_000_000;
  @TempDir Path dir;

  private Download download(Path out, URI... uris) {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .journal(dir.resolve("journal.jsonl"))
        .build();
  }

  /** Starts a download and cancels it once the mirror has served {@code after} bytes. */
  private void interrupted(Path out, Mirror m, long after) throws Exception {
    Download d = download(out, m.uri());
    CompletableFuture<DownloadReport> f =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return d.run();
              } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });
    while (m.servedBytes() < after && !f.isDone()) {
      Thread.sleep(10);
    }
    d.cancel();
    ExecutionException e = assertThrows(ExecutionException.class, f::get);
    assertTrue(e.getCause() instanceof DownloadException, e.toString());
    assertTrue(e.getCause().getMessage().startsWith("cancelled ("), e.getCause().getMessage());
  }

  @Test
  void rerunAfterCancel_resumesWithoutRefetchingVerifiedBytes() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", SIZE, 3);
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(src).rate(4e6).start()) {
      interrupted(out, m, 1_500_000);
      assertTrue(Files.exists(dir.resolve("out.bin.part")));
      assertTrue(Files.exists(dir.resolve("out.bin.braid-ctl")));
      assertFalse(Files.exists(out));
      long servedFirst = m.servedBytes();
      DownloadReport r = download(out, m.uri()).run();
      long servedSecond = m.servedBytes() - servedFirst;
      assertTrue(r.resumedBytes() >= 1_000_000, "resumed " + r.resumedBytes());
      // the second run fetches only what was missing (plus the 1-byte probe)
      assertEquals(SIZE - r.resumedBytes() + 1, servedSecond);
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertFalse(Files.exists(dir.resolve("out.bin.braid-ctl")));
    }
  }

  @Test
  void rerunWithOtherReplicas_startsOver() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", SIZE, 3);
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(src).rate(4e6).start()) {
      interrupted(out, m, 1_500_000);
    }
    try (Mirror other = Mirror.builder(src).start()) {
      DownloadReport r = download(out, other.uri()).run();
      assertEquals(0, r.resumedBytes());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    }
  }

  @Test
  void rerunAfterFileChangedOnServer_startsOver() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", SIZE, 3);
    Path out = dir.resolve("out.bin");
    Path ctl = dir.resolve("out.bin.braid-ctl");
    try (Mirror m = Mirror.builder(src).rate(4e6).start()) {
      interrupted(out, m, 1_500_000);
      // pretend the earlier run saw another version of the file (another ETag)
      String text = Files.readString(ctl);
      Files.writeString(ctl, text.replaceFirst("replica\t(\\S+)\t\\S+", "replica\t$1\t\"old\""));
      DownloadReport r = download(out, m.uri()).run();
      assertEquals(0, r.resumedBytes());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    }
  }

  @Test
  void damagedControlFile_startsOver() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", SIZE, 3);
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(src).rate(4e6).start()) {
      interrupted(out, m, 1_500_000);
      Files.writeString(
          dir.resolve("out.bin.braid-ctl"),
          Files.readString(dir.resolve("out.bin.braid-ctl")) + "done\t5\tx\n");
      DownloadReport r = download(out, m.uri()).run();
      assertEquals(0, r.resumedBytes());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    }
  }
}
