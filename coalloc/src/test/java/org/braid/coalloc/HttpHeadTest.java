package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.junit.jupiter.api.Test;

/** The answer-head parser of braid's own HTTP connections (pipelined and near). */
class HttpHeadTest {
  private static final URI URI_ = URI.create("http://127.0.0.1:1/f");

  private static ClassicHttpResponse read(String text) throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    return HttpHead.read(URI_, in::read);
  }

  private static String failure(String text) {
    return assertThrows(SourceException.ConnectionException.class, () -> read(text)).getMessage();
  }

  @Test
  void readsStatusAndHeaders_skippingInterimAnswers_andLeavesTheBody() throws IOException {
    ByteArrayInputStream in =
        new ByteArrayInputStream(
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 206 Partial Content\r\n"
                    + "Content-Range: bytes 0-3/10\r\nContent-Length:4\n\r\nBODY")
                .getBytes(StandardCharsets.ISO_8859_1));
    ClassicHttpResponse a = HttpHead.read(URI_, in::read);
    assertEquals(206, a.getCode());
    assertEquals("Partial Content", a.getReasonPhrase());
    assertEquals("bytes 0-3/10", a.getFirstHeader("content-range").getValue());
    assertEquals("4", a.getFirstHeader("Content-Length").getValue());
    assertEquals("BODY", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
  }

  @Test
  void malformedAnswers_failWithOneLineSayingWhat() {
    assertTrue(failure("SSH-2.0-OpenSSH\r\n\r\n").contains("not an HTTP/1.x answer: SSH-2.0"));
    assertTrue(failure("HTTP/1.1 2x6 odd\r\n\r\n").contains("not an HTTP/1.x answer"));
    assertTrue(failure("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n").contains("malformed header line"));
    assertTrue(failure("HTTP/1.1 200 OK\r\nno colon\r\n\r\n").contains("malformed header line"));
    assertTrue(
        failure("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n")
            .contains("connection closed before the answer's headers ended"));
    assertTrue(failure("").contains("connection closed before the answer's headers ended"));
  }

  @Test
  void limits_bindTheLineLengthAndTheHeaderCount() {
    String longLine = "HTTP/1.1 200 OK\r\nX: " + "a".repeat(HttpLimits.MAX_LINE) + "\r\n\r\n";
    assertTrue(failure(longLine).contains("header line longer than " + HttpLimits.MAX_LINE));
    StringBuilder many = new StringBuilder("HTTP/1.1 200 OK\r\n");
    for (int i = 0; i <= HttpLimits.MAX_HEADERS; i++) {
      many.append("X-").append(i).append(": v\r\n");
    }
    assertTrue(
        failure(many + "\r\n").contains("more than " + HttpLimits.MAX_HEADERS + " header lines"));
  }

  @Test
  void hasToken_findsATokenInACommaSeparatedList_whateverItsCase() throws IOException {
    ClassicHttpResponse a = read("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\n\r\n");
    assertTrue(HttpHead.hasToken(a, "connection", "close"));
    assertFalse(HttpHead.hasToken(a, "Connection", "upgrade"));
    assertFalse(
        HttpHead.hasToken(
            read("HTTP/1.1 200 OK\r\nConnection: closed\r\n\r\n"), "Connection", "close"));
    assertFalse(HttpHead.hasToken(a, "Transfer-Encoding", "chunked"));
  }
}
