package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Probes are bounded in bytes and time whatever a server sends: a probe answer that declares ten
 * gigabytes and trickles them, a server that ignores ranges and sends 64 MiB, status lines and
 * headers trickled or without end. The bad replica is left out at once or at the probe time limit,
 * and the good one serves the file.
 */
@Timeout(60)
class HostileProbeTest {
  static final int SIZE = 1_000_000;
  static final Duration PROBE_LIMIT = Duration.ofSeconds(1);
  @TempDir Path dir;
  Path src;
  byte[] data;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    src = TestFiles.random(dir, "data.bin", SIZE, 11);
    data = Files.readAllBytes(src);
    out = dir.resolve("out.bin");
  }

  private Download download(URI... uris) {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .journal(null)
        .sourceOptions(
            SourceOptions.builder()
                .probeTimeout(PROBE_LIMIT)
                .stallTimeout(Duration.ofSeconds(1))
                .connectTimeout(Duration.ofSeconds(1))
                .build())
        .build();
  }

  /** Runs the download with a hostile first replica and a good second one; checks the result. */
  private DownloadReport withGoodMirror(HostileHttpServer bad, double maxSeconds) throws Exception {
    try (Mirror good = Mirror.builder(src).start()) {
      long t0 = System.nanoTime();
      DownloadReport r = download(bad.uri("data.bin"), good.uri()).run();
      double took = (System.nanoTime() - t0) / 1e9;
      assertTrue(took < maxSeconds, "took " + took + " s");
      assertArrayEquals(data, Files.readAllBytes(out));
      assertNotNull(r.replicas().get(0).dropped(), r.replicas().toString());
      assertEquals(SIZE, r.replicas().get(1).bytes());
      return r;
    }
  }

  @Test
  void probeAnswerDeclaringTenGigabytesAndTrickling_isLeftOutAtOnce() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              x.write(
                  "HTTP/1.1 206 Partial Content\r\nContent-Range: "
                      + answered(req)
                      + "\r\nContent-Length: 10000000000\r\n\r\n");
              x.trickle(new byte[1000], Duration.ofSeconds(1));
            })) {
      DownloadReport r = withGoodMirror(bad, 3);
      assertTrue(
          r.replicas().get(0).dropped().contains("Content-Length 10000000000"),
          r.replicas().get(0).dropped());
      assertTrue(bad.written() < 200, "the client took " + bad.written() + " bytes");
    }
  }

  @Test
  void firstAnswerWhoseBytesNeverCome_goodMirrorFinishesInBoundedTime() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              long[] r = req.range();
              long last = Math.min(r[1], SIZE - 1);
              x.write(
                  "HTTP/1.1 206 Partial Content\r\nContent-Range: "
                      + answered(req)
                      + "\r\nContent-Length: "
                      + (last - r[0] + 1)
                      + "\r\n\r\n");
              Thread.sleep(60_000);
            })) {
      try (Mirror good = Mirror.builder(src).start()) {
        long t0 = System.nanoTime();
        DownloadReport r = download(bad.uri("data.bin"), good.uri()).run();
        double took = (System.nanoTime() - t0) / 1e9;
        // the probe (folded into the first request) is answered; the bytes never come, and the
        // good mirror fetches everything long before the stall timeout ends the bad requests
        assertTrue(took < PROBE_LIMIT.toSeconds() + 2.5, "took " + took + " s");
        assertArrayEquals(data, Files.readAllBytes(out));
        assertEquals(0, r.replicas().get(0).bytes(), r.replicas().toString());
        assertEquals(SIZE, r.replicas().get(1).bytes());
      }
    }
  }

  /** A Content-Range that answers the request for a file of {@code SIZE} bytes. */
  private static String answered(HostileHttpServer.Request req) {
    long[] r = req.range();
    return "bytes " + r[0] + "-" + Math.min(r[1], SIZE - 1) + "/" + SIZE;
  }

  @Test
  void serverIgnoringRange_isNotReadToTheEnd() throws Exception {
    long size = 64L << 20;
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              x.write("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n");
              x.flood(size);
            })) {
      DownloadReport r = withGoodMirror(bad, 3);
      // a server that ignores Range is a whole-file source; this one's size disagrees
      assertTrue(
          r.replicas().get(0).dropped().contains("serves " + size + " bytes"),
          r.replicas().get(0).dropped());
      // loopback socket buffers take a few MiB before the close; draining would take all 64
      assertTrue(bad.written() < size / 4, "the client took " + bad.written() + " bytes");
    }
  }

  @Test
  void statusLineTrickled_isLeftOutAtTheProbeTimeLimit() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              x.trickle(
                  "HTTP/1.1 206 Partial Content\r\n" + "X-Slow: y\r\n".repeat(1000),
                  Duration.ofMillis(50));
            })) {
      DownloadReport r = withGoodMirror(bad, PROBE_LIMIT.toSeconds() + 2.5);
      assertTrue(
          r.replicas().get(0).dropped().contains("no complete answer to the probe"),
          r.replicas().get(0).dropped());
    }
  }

  @Test
  void endlessHeaders_failAtTheHeaderLimit() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              x.write("HTTP/1.1 206 Partial Content\r\n");
              for (int i = 0; i < 1_000_000; i++) {
                x.write("X-Header-" + i + ": " + "v".repeat(100) + "\r\n");
              }
            })) {
      DownloadReport r = withGoodMirror(bad, 3);
      String why = r.replicas().get(0).dropped();
      assertTrue(why.contains("malformed HTTP answer"), why);
      assertFalse(why.contains("Exception"), why);
    }
  }

  @Test
  void dataAnswersWithTrickledHeaders_areAbandonedAndTheGoodMirrorFinishes() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              if (req.isProbe()) {
                x.serve(req, data, "");
              } else {
                x.trickle(
                    "HTTP/1.1 206 Partial Content\r\n" + "X-Slow: y\r\n".repeat(1000),
                    Duration.ofMillis(50));
              }
            })) {
      try (Mirror good = Mirror.builder(src).rate(2e6).start()) {
        long t0 = System.nanoTime();
        DownloadReport r = download(bad.uri("data.bin"), good.uri()).run();
        double took = (System.nanoTime() - t0) / 1e9;
        assertTrue(took < 5, "took " + took + " s");
        assertArrayEquals(data, Files.readAllBytes(out));
        assertTrue(r.replicas().get(0).failures() >= 1, r.replicas().toString());
      }
    }
  }

  @Test
  void loneMirrorThatNeverAnswersItsProbe_failsInBoundedTime() throws Exception {
    try (HostileHttpServer bad =
        HostileHttpServer.start(
            (req, x) -> {
              x.trickle(
                  "HTTP/1.1 206 Partial Content\r\n" + "X-Slow: y\r\n".repeat(1000),
                  Duration.ofSeconds(1));
            })) {
      long t0 = System.nanoTime();
      DownloadException e =
          assertThrows(DownloadException.class, () -> download(bad.uri("data.bin")).run());
      double took = (System.nanoTime() - t0) / 1e9;
      assertTrue(took < PROBE_LIMIT.toSeconds() + 2.5, "took " + took + " s");
      assertTrue(e.getMessage().startsWith("no usable replica"), e.getMessage());
      assertFalse(Files.exists(out));
      assertFalse(Files.exists(dir.resolve("out.bin.part")));
    }
  }
}
