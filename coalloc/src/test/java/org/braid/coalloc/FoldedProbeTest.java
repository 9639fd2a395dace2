package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe folded into each replica's first data request (issue 17): no request is spent on the
 * probe alone, the download starts once most replicas agree on the size, and a replica that answers
 * later is judged as the probe would have judged it.
 */
@Timeout(30)
class FoldedProbeTest {
  static final int FIRST = (int) Engine.FIRST_REQUEST;

  @TempDir Path dir;

  private Download.Builder download(Path out, Duration probeLimit, URI... uris) {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .journal(null)
        .sourceOptions(SourceOptions.builder().probeTimeout(probeLimit).build());
  }

  private static byte[] bytes(Path dir, String name, long size, long seed) throws Exception {
    return Files.readAllBytes(TestFiles.random(dir, name, size, seed));
  }

  @Test
  void oneReplica_fileOfOneFirstRequest_takesOneRequest() throws Exception {
    byte[] data = bytes(dir, "src.bin", FIRST, 1);
    List<HostileHttpServer.Request> seen = new CopyOnWriteArrayList<>();
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              seen.add(req);
              x.serve(req, data, "");
            })) {
      Path out = dir.resolve("out.bin");
      DownloadReport r = download(out, Duration.ofSeconds(10), s.uri("f")).build().run();
      assertArrayEquals(data, Files.readAllBytes(out));
      // the probe and the data in one request: before issue 17's fold it took two
      assertEquals(1, s.requests(), seen.toString());
      assertEquals("bytes=0-" + (FIRST - 1), seen.get(0).headers().get("range"));
      assertTrue(seen.get(0).headers().containsKey("want-repr-digest"), seen.toString());
      assertEquals(FIRST, r.replicas().get(0).bytes());
    }
  }

  @Test
  void secondReplicaAskedPastTheEnd_givesTheSizeAndStaysUsable() throws Exception {
    byte[] data = bytes(dir, "src.bin", FIRST, 2);
    List<HostileHttpServer.Request> seenA = new CopyOnWriteArrayList<>();
    List<HostileHttpServer.Request> seenB = new CopyOnWriteArrayList<>();
    try (HostileHttpServer a =
            HostileHttpServer.start(
                (req, x) -> {
                  seenA.add(req);
                  x.serve(req, data, "");
                });
        HostileHttpServer b =
            HostileHttpServer.start(
                (req, x) -> {
                  seenB.add(req);
                  x.serve(req, data, "");
                })) {
      Path out = dir.resolve("out.bin");
      DownloadReport r =
          download(out, Duration.ofSeconds(10), a.uri("f"), b.uri("f")).build().run();
      assertArrayEquals(data, Files.readAllBytes(out));
      // a's first request asked for the whole file; b's, for the next MiB, was answered 416 with
      // the size, and b stays usable (the end game may still have given it a's tail)
      assertEquals("bytes=0-" + (FIRST - 1), seenA.get(0).headers().get("range"));
      assertEquals("bytes=" + FIRST + "-" + (2 * FIRST - 1), seenB.get(0).headers().get("range"));
      assertNull(r.replicas().get(1).dropped());
      for (HostileHttpServer.Request q : seenA) {
        assertTrue(q.range()[1] > 0, "a probe alone: " + q);
      }
      for (HostileHttpServer.Request q : seenB) {
        assertTrue(q.range()[1] > 0, "a probe alone: " + q);
      }
    }
  }

  @Test
  void pipelined_firstRequestCarriesTheProbeAndTheRestFollowsOnThePipe() throws Exception {
    byte[] data = bytes(dir, "src.bin", 3L * FIRST + 12345, 6);
    List<HostileHttpServer.Request> seen = new CopyOnWriteArrayList<>();
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              seen.add(req);
              x.serve(req, data, "");
            })) {
      Path out = dir.resolve("out.bin");
      DownloadReport r =
          Download.builder()
              .sources(List.of(s.uri("f")))
              .output(out)
              .journal(null)
              .sourceOptions(SourceOptions.builder().pipelining(true).build())
              .build()
              .run();
      assertArrayEquals(data, Files.readAllBytes(out));
      assertEquals("bytes=0-" + (FIRST - 1), seen.get(0).headers().get("range"));
      assertEquals(data.length, r.replicas().get(0).bytes());
      // one probe, folded into the first request; the rest asked for on the pipe
      long probes = seen.stream().filter(q -> q.headers().containsKey("want-repr-digest")).count();
      assertEquals(1, probes, seen.toString());
      long asked = seen.stream().mapToLong(q -> q.range()[1] - q.range()[0] + 1).sum();
      assertEquals(data.length, asked, seen.toString());
    }
  }

  @Test
  void replicaThatNeverAnswers_doesNotDelayTheStart() throws Exception {
    byte[] data = bytes(dir, "src.bin", 2L * FIRST, 3);
    try (HostileHttpServer a = HostileHttpServer.start((req, x) -> x.serve(req, data, ""));
        HostileHttpServer b = HostileHttpServer.start((req, x) -> x.serve(req, data, ""));
        HostileHttpServer silent = HostileHttpServer.start((req, x) -> Thread.sleep(60_000))) {
      Path out = dir.resolve("out.bin");
      long t0 = System.nanoTime();
      DownloadReport r =
          download(out, Duration.ofSeconds(20), a.uri("f"), b.uri("f"), silent.uri("f"))
              .build()
              .run();
      double took = (System.nanoTime() - t0) / 1e9;
      assertArrayEquals(data, Files.readAllBytes(out));
      // two of three replicas agree on the size: the download does not wait for the third's
      // 20-second probe limit
      assertTrue(took < 10, "took " + took + " s");
      assertEquals(0, r.replicas().get(2).bytes());
    }
  }

  @Test
  void lateReplicaOfAnotherSize_isDroppedWhileTheOthersFetch() throws Exception {
    Path src = TestFiles.random(dir, "src.bin", 3L * FIRST, 4);
    byte[] other = bytes(dir, "other.bin", 3L * FIRST - 1000, 5);
    try (Mirror a = Mirror.builder(src).rate(1.5e6).start();
        Mirror b = Mirror.builder(src).rate(1.5e6).start();
        HostileHttpServer late =
            HostileHttpServer.start(
                (req, x) -> {
                  Thread.sleep(300);
                  x.serve(req, other, "");
                })) {
      Path out = dir.resolve("out.bin");
      DownloadReport r =
          download(out, Duration.ofSeconds(10), a.uri(), b.uri(), late.uri("f")).build().run();
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      String why = r.replicas().get(2).dropped();
      assertTrue(
          why != null && why.contains("serves " + other.length + " bytes, the other replicas"),
          String.valueOf(why));
      assertEquals(0, r.replicas().get(2).bytes());
    }
  }
}
