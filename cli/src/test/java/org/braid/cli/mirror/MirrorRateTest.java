package org.braid.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mirror's token bucket: its rate, and what a catch-up bucket does and does not give. */
class MirrorRateTest {
  @TempDir Path dir;

  @Test
  void catchUp_outsideZeroToOneSecond_isRefused() {
    Mirror.Builder b = Mirror.builder(dir.resolve("f"));
    assertThrows(IllegalArgumentException.class, () -> b.catchUp(Duration.ofMillis(-1)));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> b.catchUp(Duration.ofSeconds(2)));
    assertEquals("catch-up must be within [0, 1 s]: PT2S", e.getMessage());
  }

  /** An idle mirror with a large catch-up bucket does not send a burst of it when asked again. */
  @Test
  void catchUp_isNotSavedUpWhileIdle() throws Exception {
    Path f = dir.resolve("f");
    Files.write(f, new byte[600_000]);
    try (Mirror m = Mirror.builder(f).rate(1e6).catchUp(Duration.ofMillis(500)).start()) {
      HttpClient c = HttpClient.newHttpClient();
      fetch(c, m.uri(), 0, 99_999);
      Thread.sleep(600); // idle: a bucket filling for 600 ms would hold 500 ms of the rate
      long t0 = System.nanoTime();
      fetch(c, m.uri(), 100_000, 599_999);
      double seconds = (System.nanoTime() - t0) / 1e9;
      // 500 kB at 1 MB/s less the 10 ms bucket an idle mirror keeps: 0.49 s, not 0.
      assertTrue(seconds >= 0.45, "500 kB in " + seconds + " s");
    }
  }

  private static void fetch(HttpClient c, URI u, long from, long to) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(u).header("Range", "bytes=" + from + "-" + to).build();
    try (InputStream in = c.send(r, HttpResponse.BodyHandlers.ofInputStream()).body()) {
      assertEquals(to - from + 1, in.readAllBytes().length);
    }
  }
}
