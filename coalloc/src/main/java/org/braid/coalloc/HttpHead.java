package org.braid.coalloc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;

/**
 * The status line and headers of an HTTP/1.x answer read byte by byte from a connection of braid's
 * own (the pipelined {@link HttpPipe} and the {@link NearHttp} connections), interim 1xx answers
 * skipped, within {@link HttpLimits}: one parser, so that both fail a malformed answer alike.
 */
final class HttpHead {
  /** A connection's next byte, 0 to 255, or -1 at the end of the stream. */
  @FunctionalInterface
  interface Bytes {
    int next() throws IOException;
  }

  private HttpHead() {}

  /**
   * Reads the next final answer's head from {@code in}; {@code uri} names the replica in errors.
   */
  static ClassicHttpResponse read(URI uri, Bytes in) throws IOException {
    while (true) {
      String status = line(uri, in);
      String[] p = status.split(" ", 3);
      if (p.length < 2 || !p[0].startsWith("HTTP/1.") || !p[1].matches("\\d{3}")) {
        throw new SourceException.ConnectionException(
            uri, "not an HTTP/1.x answer: " + OneLine.abbreviate(status), null);
      }
      BasicClassicHttpResponse a =
          new BasicClassicHttpResponse(Integer.parseInt(p[1]), p.length > 2 ? p[2] : null);
      int count = 0;
      for (String h = line(uri, in); !h.isEmpty(); h = line(uri, in)) {
        int colon = h.indexOf(':');
        if (++count > HttpLimits.MAX_HEADERS || colon <= 0 || h.charAt(0) <= ' ') {
          throw new SourceException.ConnectionException(
              uri,
              count > HttpLimits.MAX_HEADERS
                  ? "more than " + HttpLimits.MAX_HEADERS + " header lines"
                  : "malformed header line: " + OneLine.abbreviate(h),
              null);
        }
        a.addHeader(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
      }
      if (a.getCode() >= 200) {
        return a;
      }
    }
  }

  /** Whether the answer's comma-separated {@code header} lists {@code token} (lower case). */
  static boolean hasToken(ClassicHttpResponse a, String header, String token) {
    var h = a.getFirstHeader(header);
    if (h == null) {
      return false;
    }
    for (String t : h.getValue().split(",")) {
      if (t.trim().toLowerCase(Locale.ROOT).equals(token)) {
        return true;
      }
    }
    return false;
  }

  /** One line without its CRLF, at most {@link HttpLimits#MAX_LINE} bytes. */
  private static String line(URI uri, Bytes in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(128);
    while (true) {
      int c = in.next();
      if (c < 0) {
        throw new SourceException.ConnectionException(
            uri, "connection closed before the answer's headers ended", null);
      }
      if (c == '\n') {
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      if (b.size() >= HttpLimits.MAX_LINE) {
        throw new SourceException.ConnectionException(
            uri, "header line longer than " + HttpLimits.MAX_LINE + " bytes", null);
      }
      b.write(c);
    }
  }
}
