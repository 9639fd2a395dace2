package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Near connections ({@link NearHttp}): a loopback plain-http replica whose first answer came from
 * its URL is read over channels of its own, into the fetch thread's direct buffer; answers are
 * checked and failures named as over the pooled client.
 */
class NearHttpTest {
  private static final byte[] DATA = new byte[3 << 20];

  static {
    new Random(5).nextBytes(DATA);
  }

  @TempDir Path dir;

  private static SourceOptions quick() {
    return SourceOptions.builder().stallTimeout(Duration.ofMillis(500)).build();
  }

  private static byte[] readAll(ReadableByteChannel ch, ByteBuffer buf, int length)
      throws IOException {
    byte[] out = new byte[length];
    int at = 0;
    while (true) {
      buf.clear();
      int n = ch.read(buf);
      if (n < 0) {
        break;
      }
      buf.flip();
      buf.get(out, at, n);
      at += n;
    }
    assertEquals(length, at);
    return out;
  }

  /**
   * The head of a 206 answer for the first 100,000 bytes of {@link #DATA}, as the tests send it.
   */
  private static final String HEAD_100K =
      "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-99999/"
          + DATA.length
          + "\r\nContent-Length: 100000\r\nETag: \"v1\"\r\n\r\n";

  /** Reads {@code ch} until it fails, which it must with {@code kind}. */
  private static <T extends Throwable> T readUntil(Class<T> kind, ReadableByteChannel ch) {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    return assertThrows(
        kind,
        () -> {
          while (ch.read(buf.clear()) >= 0) {
            // until it fails
          }
        });
  }

  private static byte[] slice(int from, int length) {
    byte[] b = new byte[length];
    System.arraycopy(DATA, from, b, 0, length);
    return b;
  }

  @Test
  void open_loopbackReplicaAnsweredDirectly_readsIntoDirectBufferOverOwnConnection()
      throws Exception {
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, DATA, ""));
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      assertFalse(src.near(), "before any answer");
      src.openFirst(0, 1 << 20).data().close();
      assertTrue(src.near());
      ByteBuffer buf = Fetcher.buffer(src);
      assertTrue(buf.isDirect());
      assertEquals(Fetcher.NEAR_BUFFER, buf.capacity());
      try (ReadableByteChannel ch = src.open(1000, 2_500_000)) {
        assertInstanceOf(NearHttp.Body.class, ch);
        assertArrayEquals(slice(1000, 2_500_000), readAll(ch, buf, 2_500_000));
      }
    }
  }

  @Test
  void open_twoRangesInTurn_secondReusesTheFirstsConnection() throws Exception {
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, DATA, ""));
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      int before = server.connections();
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 16);
      for (int i = 0; i < 3; i++) {
        try (ReadableByteChannel ch = src.open(i * 100_000L, 100_000)) {
          assertArrayEquals(slice(i * 100_000, 100_000), readAll(ch, buf, 100_000));
          assertTrue(((KeptConnection) ch).connectionKept() || ch.isOpen());
        }
      }
      assertEquals(before + 1, server.connections());
    }
  }

  @Test
  void keyedRequests_reuseTheirOwnConnection_andANewKeyGetsANewOne() throws Exception {
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, DATA, ""));
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      int before = server.connections();
      Renewal.Key a = new Renewal.Key(0, 0);
      Renewal.Key b = new Renewal.Key(1, 0);
      ByteBuffer buf = ByteBuffer.allocateDirect(4096);
      for (int i = 0; i < 4; i++) {
        try (ReadableByteChannel ch = src.open(i * 1000L, 1000, i % 2 == 0 ? a : b)) {
          assertArrayEquals(slice(i * 1000, 1000), readAll(ch, buf, 1000));
        }
      }
      assertEquals(before + 2, server.connections(), "one connection per key");
      try (ReadableByteChannel ch = src.open(4000, 1000, new Renewal.Key(0, 1))) {
        assertArrayEquals(slice(4000, 1000), readAll(ch, buf, 1000));
      }
      assertEquals(before + 3, server.connections(), "a new generation gets a new connection");
    }
  }

  @Test
  void close_cutShortWithinTheDrainLimit_keepsTheConnection() throws Exception {
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, DATA, ""));
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      int before = server.connections();
      ReadableByteChannel ch = src.open(0, 2 << 20);
      ByteBuffer half = ByteBuffer.allocateDirect(1 << 20);
      while (half.hasRemaining()) {
        ch.read(half);
      }
      ((KeptConnection) ch).drainUpTo(1 << 20);
      ch.close();
      assertTrue(((KeptConnection) ch).connectionKept());
      try (ReadableByteChannel next = src.open(2 << 20, 1000)) {
        assertArrayEquals(slice(2 << 20, 1000), readAll(next, half, 1000));
      }
      assertEquals(before + 1, server.connections(), "drained: the connection is kept");
      ch = src.open(0, 2 << 20);
      ch.read(half.clear());
      ch.close(); // far more left than the default limit (64 KiB): the connection goes
      assertFalse(((KeptConnection) ch).connectionKept());
    }
  }

  @Test
  void open_redirectedFirstAnswer_staysOnThePooledClient() throws Exception {
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  if (r.target().equals("/a")) {
                    x.write("HTTP/1.1 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n");
                  } else {
                    x.serve(r, DATA, "");
                  }
                });
        HttpRangeSource src = new HttpRangeSource(server.uri("a"), SourceOptions.DEFAULT)) {
      src.probe();
      assertFalse(src.near());
      try (ReadableByteChannel ch = src.open(10, 1000)) {
        assertFalse(ch instanceof NearHttp.Body);
        assertArrayEquals(slice(10, 1000), readAll(ch, ByteBuffer.allocate(4096), 1000));
      }
    }
  }

  @Test
  void open_turnedOffByProperty_staysOnThePooledClient() throws Exception {
    System.setProperty(NearHttp.PROPERTY, "false");
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, DATA, ""));
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      assertFalse(src.near());
      assertFalse(Fetcher.buffer(src).isDirect());
    } finally {
      System.clearProperty(NearHttp.PROPERTY);
    }
  }

  @Test
  void open_serverClosedTheIdleConnection_retriedOnANewOne() throws Exception {
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  x.serve(r, DATA, "");
                  x.close(); // without saying Connection: close
                });
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      for (int i = 0; i < 3; i++) {
        try (ReadableByteChannel ch = src.open(i, 5000)) {
          assertArrayEquals(slice(i, 5000), readAll(ch, ByteBuffer.allocateDirect(8192), 5000));
        }
        Thread.sleep(50); // the server's close reaches the idle connection
      }
    }
  }

  @Test
  void open_wrongContentRange_failsAsBadRange() throws Exception {
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  if (r.isProbe()) {
                    x.serve(r, DATA, "");
                  } else {
                    x.write(
                        "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/"
                            + DATA.length
                            + "\r\nContent-Length: 10\r\nETag: \"v1\"\r\n\r\n0123456789");
                  }
                });
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), SourceOptions.DEFAULT)) {
      src.probe();
      assertThrows(SourceException.BadRangeException.class, () -> src.open(100, 10));
    }
  }

  @Test
  void read_bodyEndsEarly_failsNamingTheBytesRead() throws Exception {
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  if (r.isProbe()) {
                    x.serve(r, DATA, "");
                    return;
                  }
                  x.write(HEAD_100K);
                  x.write(slice(0, 40_000));
                  x.close();
                });
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), quick())) {
      src.probe();
      ReadableByteChannel ch = src.open(0, 100_000);
      SourceException e = readUntil(SourceException.BodyLengthException.class, ch);
      assertEquals("body ended after 40000 of 100000 bytes", e.getMessage().replaceAll(".*: ", ""));
      ch.close();
    }
  }

  @Test
  void read_serverStalls_failsAfterTheStallTimeout() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  if (r.isProbe()) {
                    x.serve(r, DATA, "");
                    return;
                  }
                  x.write(HEAD_100K);
                  x.write(slice(0, 1000));
                  done.await(10, TimeUnit.SECONDS);
                });
        HttpRangeSource src = new HttpRangeSource(server.uri("f"), quick())) {
      src.probe();
      ReadableByteChannel ch = src.open(0, 100_000);
      SourceException e = readUntil(SourceException.StalledException.class, ch);
      assertTrue(e.getMessage().contains("after 1000 of 100000 bytes"), e.getMessage());
      ch.close();
      done.countDown();
    }
  }

  @Test
  void close_fromAnotherThread_endsABlockedRead() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (HostileHttpServer server =
            HostileHttpServer.start(
                (r, x) -> {
                  if (r.isProbe()) {
                    x.serve(r, DATA, "");
                    return;
                  }
                  x.write(HEAD_100K);
                  done.await(30, TimeUnit.SECONDS);
                });
        HttpRangeSource src =
            new HttpRangeSource(
                server.uri("f"),
                SourceOptions.builder().stallTimeout(Duration.ofSeconds(30)).build())) {
      src.probe();
      ReadableByteChannel ch = src.open(0, 100_000);
      Thread closer =
          new Thread(
              () -> {
                try {
                  Thread.sleep(200);
                  ch.close();
                } catch (IOException | InterruptedException e) {
                  throw new AssertionError(e);
                }
              });
      closer.start();
      long t0 = System.nanoTime();
      assertThrows(
          SourceException.ConnectionException.class,
          () -> ch.read(ByteBuffer.allocateDirect(4096)));
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20), "ended by the close");
      assertFalse(((KeptConnection) ch).connectionKept());
      closer.join();
      done.countDown();
    }
  }

  @Test
  void download_corruptByteFromANearReplica_failsTheChecksum() throws Exception {
    byte[] bad = DATA.clone();
    bad[2_000_001] ^= 1;
    String sum = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(DATA));
    try (HostileHttpServer server = HostileHttpServer.start((r, x) -> x.serve(r, bad, ""))) {
      Path out = dir.resolve("out.bin");
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () ->
                  Download.builder()
                      .sources(List.of(server.uri("f")))
                      .output(out)
                      .checksums(List.of(Checksum.parse("sha256:" + sum)))
                      .build()
                      .run());
      assertEquals(DownloadException.Kind.VERIFICATION, e.kind());
      assertFalse(Files.exists(out));
    }
  }
}
