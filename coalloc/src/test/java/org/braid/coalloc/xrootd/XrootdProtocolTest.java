package org.braid.coalloc.xrootd;

import static org.braid.coalloc.xrootd.ScriptedXrootd.frame;
import static org.braid.coalloc.xrootd.ScriptedXrootd.header;
import static org.braid.coalloc.xrootd.ScriptedXrootd.intText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import javax.net.ssl.SSLContext;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.SourceOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The XRootD client against a scripted peer, for the answers a real xrootd gives only under
 * conditions a test cannot arrange (kXR_wait, kXR_waitresp, malformed or oversized answers, endless
 * redirects, authentication protocols braid does not speak). The ordinary protocol is tested
 * against a real xrootd in the system tests.
 */
class XrootdProtocolTest {
  private static final SourceOptions OPTIONS =
      SourceOptions.builder()
          .connectTimeout(Duration.ofSeconds(2))
          .stallTimeout(Duration.ofSeconds(2))
          .build();

  private ScriptedXrootd peer;
  private XrootdRangeSource source;
  private byte[] data;

  @BeforeEach
  void start() throws Exception {
    data = new byte[100_000];
    new Random(5).nextBytes(data);
    peer = new ScriptedXrootd(data);
    source = new XrootdRangeSource(peer.uri(), OPTIONS, XrootdProtocolTest::noTls);
  }

  @AfterEach
  void stop() throws Exception {
    source.close();
    peer.close();
  }

  private static SSLContext noTls() {
    throw new AssertionError("no TLS expected");
  }

  private static byte[] readAll(ReadableByteChannel ch) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(4096);
    while (ch.read(b.clear()) >= 0) {
      out.write(b.array(), 0, b.position());
    }
    return out.toByteArray();
  }

  private long count(int request) {
    return peer.requests.stream().filter(r -> r.id() == request).count();
  }

  @Test
  void read_oksofarParts_areJoinedIntoTheRange() throws Exception {
    peer.script =
        r -> {
          if (r.id() != Xrd.READ) {
            return null;
          }
          ByteBuffer p = r.params16();
          p.getInt();
          int off = (int) p.getLong();
          int len = p.getInt();
          int half = len / 2;
          return List.of(
              frame(Xrd.OKSOFAR, Arrays.copyOfRange(data, off, off + half)),
              frame(Xrd.OKSOFAR, Arrays.copyOfRange(data, off + half, off + len)),
              frame(Xrd.OK, new byte[0]));
        };
    source.probe();
    try (ReadableByteChannel ch = source.open(1000, 50_000)) {
      assertArrayEquals(Arrays.copyOfRange(data, 1000, 51_000), readAll(ch));
    }
    // the connection is reused for the next range: one login, two reads
    try (ReadableByteChannel ch = source.open(7, 3)) {
      assertArrayEquals(Arrays.copyOfRange(data, 7, 10), readAll(ch));
    }
    assertEquals(1, count(Xrd.LOGIN));
    assertEquals(2, count(Xrd.READ));
  }

  @Test
  void probeThenRange_loginOpenAndChecksumInTwoRoundTrips() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.QUERY
                ? List.of(frame(Xrd.OK, ScriptedXrootd.text("adler32 0a1b2c3d")))
                : null;
    assertEquals(
        List.of(new Checksum("adler32", "0a1b2c3d")), source.probe().checksums(), "checksum");
    try (ReadableByteChannel ch = source.open(5, 1000)) {
      assertArrayEquals(Arrays.copyOfRange(data, 5, 1005), readAll(ch));
    }
    assertEquals(
        List.of(Xrd.PROTOCOL, Xrd.LOGIN, Xrd.OPEN, Xrd.QUERY, Xrd.READ),
        peer.requests.stream().map(ScriptedXrootd.Request::id).toList());
    // handshake, kXR_protocol and kXR_login together; kXR_open with the checksum query (on
    // stream 2); then the read on the same connection
    assertEquals(2, peer.requests.get(3).streamId());
    assertEquals(3, peer.batches());
  }

  @Test
  void probe_openRefused_failsAlthoughTheChecksumQueryWentWithIt() {
    peer.script =
        r ->
            r.id() == Xrd.OPEN
                ? List.of(frame(Xrd.ERROR, intText(Xrd.ERR_NOT_FOUND, "no such file")))
                : null;
    SourceException e = assertThrows(SourceException.class, () -> source.probe());
    assertTrue(e.getMessage().contains("no such file"), e.getMessage());
  }

  @Test
  void open_waitAnswer_isWaitedOutAndSentAgain() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.OPEN && count(Xrd.OPEN) == 1
                ? List.of(frame(Xrd.WAIT, intText(1, "staging")))
                : null;
    long t0 = System.nanoTime();
    assertEquals(data.length, source.probe().size());
    assertTrue(System.nanoTime() - t0 >= 900_000_000L, "waited the second the server asked");
    assertEquals(2, count(Xrd.OPEN));
  }

  @Test
  void open_waitLongerThanStallTimeout_failsRetryable() {
    peer.script = r -> r.id() == Xrd.OPEN ? List.of(frame(Xrd.WAIT, intText(600, "tape"))) : null;
    SourceException e = assertThrows(SourceException.class, () -> source.probe());
    assertTrue(e.retryable());
    assertEquals(
        peer.uri()
            + ": 127.0.0.1:"
            + peer.port()
            + " asks to wait 600 s for kXR_open, longer"
            + " than the stall timeout (tape)",
        e.getMessage());
  }

  @Test
  void read_waitThenData_asksAgainForTheRest() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.READ && count(Xrd.READ) == 1
                ? List.of(frame(Xrd.WAIT, intText(0, "busy")))
                : null;
    source.probe();
    try (ReadableByteChannel ch = source.open(10, 20_000)) {
      assertArrayEquals(Arrays.copyOfRange(data, 10, 20_010), readAll(ch));
    }
    assertEquals(2, count(Xrd.READ));
  }

  @Test
  void open_waitrespThenAsynchronousAnswer_isUnwrapped() throws Exception {
    peer.script =
        r -> {
          if (r.id() != Xrd.OPEN) {
            return null;
          }
          byte[] inner = peer.standard(r).get(0);
          byte[] attn =
              ByteBuffer.allocate(8 + 8 + inner.length)
                  .putShort((short) 0)
                  .putShort((short) Xrd.ATTN)
                  .putInt(8 + inner.length)
                  .putInt(Xrd.ASYNRESP)
                  .putInt(0)
                  .put(inner)
                  .array();
          return List.of(frame(Xrd.WAITRESP, ByteBuffer.allocate(4).putInt(1).array()), attn);
        };
    assertEquals(data.length, source.probe().size());
  }

  @Test
  void open_answerLongerThanTheLimit_failsWithoutReadingIt() {
    peer.script = r -> r.id() == Xrd.OPEN ? List.of(header(Xrd.OK, 50_000_000)) : null;
    SourceException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5), () -> assertThrows(SourceException.class, source::probe));
    assertFalse(e.retryable());
    assertEquals(
        peer.uri()
            + ": XRootD protocol error from 127.0.0.1:"
            + peer.port()
            + ": answer of 50000000 bytes (status 0), limit 65536",
        e.getMessage());
  }

  @Test
  void read_frameLongerThanAsked_fails() throws Exception {
    peer.script = r -> r.id() == Xrd.READ ? List.of(frame(Xrd.OK, Arrays.copyOf(data, 200))) : null;
    source.probe();
    SourceException e = assertThrows(SourceException.class, () -> readAll(source.open(0, 100)));
    assertEquals(peer.uri() + ": server sent more than the 100 requested bytes", e.getMessage());
  }

  @Test
  void read_endsEarly_failsNamingTheBytes() throws Exception {
    peer.script = r -> r.id() == Xrd.READ ? List.of(frame(Xrd.OK, Arrays.copyOf(data, 60))) : null;
    source.probe();
    SourceException e = assertThrows(SourceException.class, () -> readAll(source.open(0, 100)));
    assertEquals(
        peer.uri()
            + ": the server sent 60 of 100 bytes and ended the read: the file is shorter"
            + " than the range",
        e.getMessage());
  }

  @Test
  void open_notFound_isNotRetryable() {
    peer.script =
        r ->
            r.id() == Xrd.OPEN
                ? List.of(frame(Xrd.ERROR, intText(Xrd.ERR_NOT_FOUND, "no such file\0")))
                : null;
    SourceException e = assertThrows(SourceException.class, source::probe);
    assertFalse(e.retryable());
    assertEquals(
        peer.uri()
            + ": kXR_open failed on 127.0.0.1:"
            + peer.port()
            + ": kXR_NotFound: no such file",
        e.getMessage());
  }

  @Test
  void open_endlessRedirects_stopAfterTheLimit() {
    peer.script =
        r ->
            r.id() == Xrd.OPEN
                ? List.of(frame(Xrd.REDIRECT, intText(peer.port(), "127.0.0.1")))
                : null;
    SourceException e = assertThrows(SourceException.class, source::probe);
    assertEquals(
        peer.uri() + ": more than 8 redirects (the last to 127.0.0.1:" + peer.port() + ")",
        e.getMessage());
    assertEquals(9, count(Xrd.OPEN));
  }

  @Test
  void open_redirectWithOpaqueInformation_sendsItWithThePath() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.OPEN && count(Xrd.OPEN) == 1
                ? List.of(frame(Xrd.REDIRECT, intText(peer.port(), "127.0.0.1?tried=a&x=1")))
                : null;
    source.probe();
    assertEquals(
        "/data/f.bin?tried=a&x=1",
        peer.requests.stream()
            .filter(r -> r.id() == Xrd.OPEN)
            .skip(1)
            .findFirst()
            .orElseThrow()
            .text());
  }

  @Test
  void login_onlyGsiOffered_isRefusedNamingIt() {
    peer.script =
        r ->
            r.id() == Xrd.LOGIN
                ? List.of(frame(Xrd.OK, concat(new byte[16], "&P=gsi,v:10000,c:ssl&P=krb5\0")))
                : null;
    SourceException e = assertThrows(SourceException.class, source::probe);
    assertFalse(e.retryable());
    assertEquals(
        peer.uri()
            + ": 127.0.0.1:"
            + peer.port()
            + " requires XRootD authentication by gsi,"
            + " krb5; braid speaks only unix and host (or none)",
        e.getMessage());
  }

  @Test
  void login_unixOffered_authenticatesWithTheUserName() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.LOGIN
                ? List.of(frame(Xrd.OK, concat(new byte[16], "&P=gsi,v:1&P=unix\0")))
                : null;
    source.probe();
    ScriptedXrootd.Request auth =
        peer.requests.stream().filter(r -> r.id() == Xrd.AUTH).findFirst().orElseThrow();
    assertEquals(
        "unix", new String(Arrays.copyOfRange(auth.params(), 12, 16), StandardCharsets.US_ASCII));
    assertEquals("unix\0" + System.getProperty("user.name") + "\0", auth.text());
  }

  @Test
  void handshake_notXrootd_failsClearly() {
    peer.handshakeAnswer = "HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    SourceException e = assertThrows(SourceException.class, source::probe);
    assertTrue(e.getMessage().contains("not an XRootD server (handshake answer"), e.getMessage());
  }

  @Test
  void checksum_answer_isParsedAndAnAlgorithmIsAskedByCgi() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.QUERY
                ? List.of(frame(Xrd.OK, ScriptedXrootd.text("adler32 0A1B2C3D")))
                : null;
    assertEquals(Optional.of(new Checksum("adler32", "0a1b2c3d")), source.checksum(null));
    source.checksum("md5");
    List<String> asked =
        peer.requests.stream()
            .filter(r -> r.id() == Xrd.QUERY)
            .map(ScriptedXrootd.Request::text)
            .toList();
    assertEquals(List.of("/data/f.bin", "/data/f.bin?cks.type=md5"), asked);
  }

  @Test
  void checksum_unsupported_isEmpty() throws Exception {
    peer.script =
        r ->
            r.id() == Xrd.QUERY
                ? List.of(frame(Xrd.ERROR, intText(Xrd.ERR_UNSUPPORTED, "not supported\0")))
                : null;
    assertEquals(Optional.empty(), source.checksum(null));
  }

  private static byte[] concat(byte[] a, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
