package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** Needs nginx (Debian: nginx-light); fails under CI=true without it, skips elsewhere. */
class NginxServerTest {

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void twoServers_serveTheirRoots_andTheSlowOneIsRateLimited() throws Exception {
    Path fast = Files.createDirectories(dir.resolve("fast"));
    Path slow = Files.createDirectories(dir.resolve("slow"));
    byte[] data = new byte[150_000];
    new Random(1).nextBytes(data);
    Files.write(fast.resolve("f.bin"), data);
    Files.write(slow.resolve("s.bin"), data);
    try (NginxServer nginx =
        NginxServer.builder(dir.resolve("nginx")).server(fast).server(slow, "100k").start()) {
      assertNotEquals(nginx.port(0), nginx.port(1));
      assertArrayEquals(data, get(nginx.uri(0, "f.bin")).body());
      assertEquals(404, get(nginx.uri(0, "s.bin")).statusCode());
      long t0 = System.nanoTime();
      assertArrayEquals(data, get(nginx.uri(1, "s.bin")).body());
      double seconds = (System.nanoTime() - t0) / 1e9;
      // 150 000 bytes at 100 KiB/s: about 1.46 s.
      assertTrue(seconds > 1.0, "limit_rate 100k served 150 kB in " + seconds + " s");
      assertTrue(Files.readString(nginx.accessLog()).contains("GET /f.bin HTTP/1.1\" 200 150000"));
    }
  }

  @Test
  void accessLogInOwnFormat_isReopenedAfterRename() throws Exception {
    Path www = Files.createDirectories(dir.resolve("www"));
    Files.writeString(www.resolve("a.txt"), "hello");
    Path log = dir.resolve("logs/my-access.log");
    Files.createDirectories(log.getParent());
    try (NginxServer nginx =
        NginxServer.builder(dir.resolve("nginx"))
            .http("log_format mine '$request_method $uri $status';")
            .accessLog(log, "mine")
            .server(www)
            .start()) {
      assertEquals("hello", new String(get(nginx.uri(0, "a.txt")).body()));
      Path rotated = dir.resolve("logs/my-access.log.1");
      Files.move(log, rotated);
      nginx.reopenLogs();
      assertEquals(404, get(nginx.uri(0, "missing")).statusCode());
      awaitLines(log, 1);
      assertEquals(List.of("GET /a.txt 200"), Files.readAllLines(rotated));
      assertEquals(List.of("GET /missing 404"), Files.readAllLines(log));
    }
  }

  /**
   * Waits up to 5 s until {@code log} has {@code n} lines: nginx writes a request's line after its
   * response has gone out, so the client can see the answer before the line is there.
   */
  private static void awaitLines(Path log, int n) throws Exception {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while ((!Files.exists(log) || Files.readAllLines(log).size() < n)
        && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  @Test
  void serverLog_getsOnlyItsServersRequests_besidesTheSharedLog() throws Exception {
    Path www = Files.createDirectories(dir.resolve("www"));
    Files.writeString(www.resolve("a.txt"), "hello");
    Path own = dir.resolve("first.log");
    try (NginxServer nginx =
        NginxServer.builder(dir.resolve("nginx"))
            .http("log_format mine '$server_port $request_method $uri $status';")
            .server(www)
            .serverLog(own, "mine")
            .server(www)
            .start()) {
      get(nginx.uri(0, "a.txt"));
      get(nginx.uri(1, "a.txt"));
      awaitLines(nginx.accessLog(), 2);
      assertEquals(List.of(nginx.port(0) + " GET /a.txt 200"), Files.readAllLines(own));
      assertEquals(2, Files.readAllLines(nginx.accessLog()).size());
    }
  }

  @Test
  void serverLog_beforeAnyServer_isRefused() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> NginxServer.builder(dir).serverLog(dir.resolve("x.log"), null));
    assertEquals("serverLog needs a server block before it", e.getMessage());
  }

  @Test
  void badConfiguration_failsWithNginxsOwnMessage() throws Exception {
    NginxServer.binary(); // skip (or fail under CI) first when nginx is missing
    Path www = Files.createDirectories(dir.resolve("www"));
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class,
            () ->
                NginxServer.builder(dir.resolve("nginx"))
                    .http("no_such_directive on;")
                    .server(www)
                    .start());
    assertTrue(e.getMessage().startsWith("nginx did not start (exited)"), e.getMessage());
    assertTrue(e.getMessage().contains("unknown directive \"no_such_directive\""), e.getMessage());
  }

  @Test
  void noServerBlock_isRefused() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> NginxServer.builder(dir).start());
    assertEquals("nginx needs at least one server block", e.getMessage());
    assertFalse(Files.exists(dir.resolve("nginx.conf")));
  }

  private HttpResponse<byte[]> get(URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
