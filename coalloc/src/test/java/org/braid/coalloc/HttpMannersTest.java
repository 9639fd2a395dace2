package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP manners with servers written for the test on 127.0.0.1: {@code Retry-After} is waited for
 * when within the limit and drops the replica when beyond it, a lone mirror trickling bytes is
 * dropped by the low-speed limit, the tries are configurable, the rate limit holds, and extra
 * headers reach the server. Each ends in bounded time with nothing under the final name but a
 * verified file.
 */
@Timeout(60)
class HttpMannersTest {
  static final int SIZE = 300_000;
  @TempDir Path dir;
  byte[] data;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    data = Files.readAllBytes(TestFiles.random(dir, "data.bin", SIZE, 17));
    out = dir.resolve("out.bin");
  }

  private Download.Builder download(HostileHttpServer s) {
    return Download.builder()
        .sources(List.of(s.uri("data.bin")))
        .output(out)
        .journal(null)
        .sourceOptions(
            SourceOptions.builder()
                .probeTimeout(Duration.ofSeconds(5))
                .stallTimeout(Duration.ofSeconds(5))
                .connectTimeout(Duration.ofSeconds(1))
                .build());
  }

  private void assertNothingButParts() throws Exception {
    assertFalse(Files.exists(out), "no output under the final name");
  }

  @Test
  void retryAfterWithinTheLimit_isWaitedForAtProbeAndData() throws Exception {
    List<Long> times = new CopyOnWriteArrayList<>();
    AtomicInteger n = new AtomicInteger();
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              times.add(System.nanoTime());
              int k = n.incrementAndGet();
              if (k == 1 || k == 3) {
                // the probe and the first data request are told to come back in a second
                x.write(
                    "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
                        + "Content-Length: 0\r\n\r\n");
              } else {
                x.serve(req, data, "");
              }
            })) {
      DownloadReport r = download(s).build().run();
      assertArrayEquals(data, Files.readAllBytes(out));
      assertEquals(1, r.replicas().get(0).failures());
      assertNull(r.replicas().get(0).dropped());
      assertTrue(times.size() >= 4, "requests " + times.size());
      assertTrue(times.get(1) - times.get(0) >= 950_000_000L, "probe retried too early");
      assertTrue(times.get(3) - times.get(2) >= 950_000_000L, "data retried too early");
    }
  }

  @Test
  void retryAfterBeyondTheLimit_dropsTheLoneMirrorAtOnce() throws Exception {
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              if (req.isProbe()) {
                x.serve(req, data, "");
              } else {
                x.write(
                    "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3600\r\n"
                        + "Content-Length: 0\r\n\r\n");
              }
            })) {
      long t0 = System.nanoTime();
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () -> download(s).maxRetryAfter(Duration.ofSeconds(5)).build().run());
      assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "took too long");
      assertEquals(DownloadException.Kind.NETWORK, e.kind());
      assertTrue(e.getMessage().contains("Retry-After 3600 s"), e.getMessage());
      assertEquals(2, s.requests(), "the probe and one data request");
      assertNothingButParts();
    }
  }

  @Test
  void tricklingLoneMirror_isDroppedByTheLowSpeedLimit() throws Exception {
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              if (req.isProbe()) {
                x.serve(req, data, "");
                return;
              }
              long[] r = req.range();
              x.write(
                  "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes "
                      + r[0]
                      + "-"
                      + r[1]
                      + "/"
                      + SIZE
                      + "\r\nContent-Length: "
                      + (r[1] - r[0] + 1)
                      + "\r\n\r\n");
              // 5 bytes a second, never a stall
              x.trickle(new byte[SIZE], Duration.ofMillis(200));
            })) {
      long t0 = System.nanoTime();
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () ->
                  download(s).lowSpeedLimit(1000, Duration.ofSeconds(1)).maxTries(2).build().run());
      double took = (System.nanoTime() - t0) / 1e9;
      // two tries of about a second each, with a back-off between them
      assertTrue(took < 8, "took " + took + " s");
      assertEquals(DownloadException.Kind.NETWORK, e.kind());
      assertTrue(e.getMessage().contains("low-speed limit of 1000 bytes/s"), e.getMessage());
      assertEquals(3, s.requests(), "the probe and two tries");
      assertNothingButParts();
    }
  }

  @Test
  void maxTries_dropsAReplicaAfterThatManyFailuresInARow() throws Exception {
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              if (req.isProbe()) {
                x.serve(req, data, "");
              } else {
                x.write("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");
              }
            })) {
      DownloadException e =
          assertThrows(DownloadException.class, () -> download(s).maxTries(3).build().run());
      assertEquals(DownloadException.Kind.NETWORK, e.kind());
      assertEquals(4, s.requests(), "the probe and three tries");
      assertNothingButParts();
    }
  }

  @Test
  void rateLimit_holdsForAllConnectionsTogether() throws Exception {
    try (HostileHttpServer s = HostileHttpServer.start((req, x) -> x.serve(req, data, ""))) {
      long t0 = System.nanoTime();
      download(s).maxBytesPerSecond(200_000).build().run();
      double took = (System.nanoTime() - t0) / 1e9;
      assertArrayEquals(data, Files.readAllBytes(out));
      // 300,000 bytes at 200,000 bytes/s: 1.5 s, less the first chunk taken at once
      assertTrue(took > 1.2, "took " + took + " s");
    }
  }

  @Test
  void extraHeaders_reachTheServer() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (HostileHttpServer s =
        HostileHttpServer.start(
            (req, x) -> {
              seen.add(req.headers().get("x-experiment"));
              x.serve(req, data, "");
            })) {
      Download.builder()
          .sources(List.of(s.uri("data.bin")))
          .output(out)
          .journal(null)
          .sourceOptions(SourceOptions.builder().header("X-Experiment", "atlas").build())
          .build()
          .run();
      assertArrayEquals(data, Files.readAllBytes(out));
      assertFalse(seen.isEmpty());
      assertTrue(seen.stream().allMatch("atlas"::equals), seen.toString());
    }
    assertThrows(
        IllegalArgumentException.class, () -> SourceOptions.builder().header("X-A", "a\r\nb: c"));
    assertThrows(
        IllegalArgumentException.class, () -> SourceOptions.builder().header("Range", "x"));
    assertThrows(IllegalArgumentException.class, () -> SourceOptions.builder().header("a b", "x"));
  }

  @Test
  void retryAfter_readsSecondsAndDatesAndIgnoresGarbage() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertEquals(Duration.ofSeconds(7), RetryAfter.parse(" 7 ", now));
    assertEquals(Duration.ofSeconds(90), RetryAfter.parse("Thu, 01 Jan 2026 00:01:30 GMT", now));
    assertEquals(Duration.ZERO, RetryAfter.parse("Wed, 31 Dec 2025 00:00:00 GMT", now));
    assertEquals(Duration.ofDays(1), RetryAfter.parse("99999999999", now));
    assertNull(RetryAfter.parse("-1", now));
    assertNull(RetryAfter.parse("soon", now));
    assertNull(RetryAfter.parse(null, now));
  }
}
