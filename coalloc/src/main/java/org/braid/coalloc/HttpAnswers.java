package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * Checks the answers of one HTTP replica: the probe's (status, {@code Content-Range}, validators
 * and checksums) and each range's (status 206, {@code Content-Range} and {@code Content-Length}
 * equal to the request, {@code ETag} and {@code Last-Modified} equal to the probe's).
 */
final class HttpAnswers {
  private static final Pattern CONTENT_RANGE =
      Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern UNSATISFIED_RANGE =
      Pattern.compile("bytes\\s+\\*/(\\d+)", Pattern.CASE_INSENSITIVE);

  /** A checked probe answer and whether its body was read whole (the connection is reusable). */
  record Probed(Validators validators, boolean reusable) {}

  private final URI uri;

  HttpAnswers(URI uri) {
    this.uri = uri;
  }

  /**
   * The validators and checksums of a probe's answer (a request for byte 0); its body is read only
   * when it is the one byte asked for.
   */
  Probed probe(ClassicHttpResponse r) throws IOException {
    int status = r.getCode();
    Validators v;
    boolean reusable = false;
    if (status == 206) {
      Matcher m = contentRange(r);
      if (m == null
          || m.group(3).equals("*")
          || !m.group(1).equals("0")
          || !m.group(2).equals("0")) {
        throw new SourceException.BadRangeException(
            uri, "probe answer has no usable Content-Range: " + header(r, "Content-Range"));
      }
      v = new Validators(Long.parseLong(m.group(3)), etag(r), header(r, "Last-Modified"));
      reusable = readProbeBody(r, 1);
    } else if (status == 416) {
      String cr = header(r, "Content-Range");
      Matcher m = cr == null ? null : UNSATISFIED_RANGE.matcher(cr.trim());
      if (m == null || !m.matches() || Long.parseLong(m.group(1)) != 0) {
        throw statusError(r);
      }
      v = new Validators(0, etag(r), header(r, "Last-Modified"));
    } else if (status == 200) {
      v = wholeFile(r);
    } else {
      throw statusError(r);
    }
    v = v.withChecksums(HttpDigests.parse(header(r, "Repr-Digest"), header(r, "Digest")));
    return new Probed(v, reusable);
  }

  /**
   * A checked answer to a first request: the validators, and whether its body is exactly the range
   * asked for (else it carries no usable data and is not read).
   */
  record First(Validators validators, boolean exact) {}

  /**
   * The validators and checksums of the answer to a first request for {@code length} bytes at
   * {@code offset} (the probe folded into a data request): 206 with a Content-Range that starts at
   * the offset and ends at the requested end or, for a shorter file, at its last byte; 416 for a
   * range that starts past the end; 200 from a server that ignores Range. Anything else is refused
   * as the probe refuses it.
   */
  First first(ClassicHttpResponse r, long offset, long length) throws SourceException {
    int status = r.getCode();
    long end = offset + length - 1;
    Validators v;
    boolean exact = false;
    if (status == 206) {
      Matcher m = contentRange(r);
      long first = m == null ? -1 : number(m.group(1));
      long last = m == null ? -1 : number(m.group(2));
      long total = m == null || m.group(3).equals("*") ? -1 : number(m.group(3));
      if (first != offset
          || last < first
          || last >= total
          || last > end
          || (last != end && last != total - 1)) {
        throw new SourceException.BadRangeException(
            uri,
            "first answer's Content-Range '"
                + OneLine.abbreviate(String.valueOf(header(r, "Content-Range")))
                + "' does not answer bytes="
                + offset
                + "-"
                + end);
      }
      String cl = header(r, "Content-Length");
      if (cl != null && !cl.trim().equals(Long.toString(last - first + 1))) {
        throw new SourceException.BadRangeException(
            uri,
            "first answer declares Content-Length "
                + OneLine.abbreviate(cl.trim())
                + " for "
                + (last - first + 1)
                + " bytes");
      }
      exact = last == end;
      v = new Validators(total, etag(r), header(r, "Last-Modified"));
    } else if (status == 416) {
      String cr = header(r, "Content-Range");
      Matcher m = cr == null ? null : UNSATISFIED_RANGE.matcher(cr.trim());
      if (m == null || !m.matches() || number(m.group(1)) > offset) {
        throw statusError(r);
      }
      v = new Validators(number(m.group(1)), etag(r), header(r, "Last-Modified"));
    } else if (status == 200) {
      v = wholeFile(r);
    } else {
      throw statusError(r);
    }
    v = v.withChecksums(HttpDigests.parse(header(r, "Repr-Digest"), header(r, "Digest")));
    return new First(v, exact);
  }

  /** A decimal number from a header; one too large for a file size is a bad answer. */
  private long number(String digits) throws SourceException {
    if (digits.length() > 18) {
      throw new SourceException.BadRangeException(
          uri, "number too large in the answer: " + OneLine.abbreviate(digits));
    }
    return Long.parseLong(digits);
  }

  /** The validators of a server that answered a range request with the whole file. */
  private Validators wholeFile(ClassicHttpResponse r) throws SourceException {
    long size = contentLength(r);
    if (size < 0) {
      throw new SourceException.RangeIgnoredException(uri, 0, 1);
    }
    return new Validators(size, etag(r), header(r, "Last-Modified"), false, List.of());
  }

  /**
   * Reads a probe answer's body if it declares exactly {@code expected} bytes; true if it was read
   * whole (the connection can be reused), false if it is left unread.
   *
   * @throws SourceException if the answer declares another length
   */
  private boolean readProbeBody(ClassicHttpResponse r, int expected) throws IOException {
    String cl = header(r, "Content-Length");
    if (cl != null && !cl.trim().equals(Integer.toString(expected))) {
      throw new SourceException.BadRangeException(
          uri,
          "probe answer declares Content-Length "
              + OneLine.abbreviate(cl.trim())
              + " for a "
              + expected
              + "-byte range");
    }
    HttpEntity e = r.getEntity();
    if (cl == null || e == null) {
      return false;
    }
    try (InputStream in = e.getContent()) {
      if (in.readNBytes(expected).length != expected) {
        throw new SourceException.BodyLengthException(uri, "probe answer ended early", null);
      }
    }
    return true;
  }

  /** Checks the answer to a request for {@code length} bytes at {@code offset}. */
  void check(ClassicHttpResponse r, long offset, long length, Validators p) throws SourceException {
    int status = r.getCode();
    long size = p == null ? -1 : p.size();
    if (status == 200) {
      if (offset != 0 || length != size) {
        throw new SourceException.RangeIgnoredException(uri, offset, length);
      }
    } else if (status == 206) {
      checkContentRange(r, offset, length, size);
    } else {
      throw statusError(r);
    }
    String cl = header(r, "Content-Length");
    if (cl != null && !cl.trim().equals(Long.toString(length))) {
      throw new SourceException.BadRangeException(
          uri, "Content-Length " + cl.trim() + " differs from the requested " + length + " bytes");
    }
    if (p != null) {
      Validators now = new Validators(p.size(), etag(r), header(r, "Last-Modified"));
      if (!p.sameVersion(now)) {
        throw new SourceException.ReplicaChangedException(
            uri,
            "file changed on the server (ETag "
                + p.etag()
                + " -> "
                + now.etag()
                + ", Last-Modified "
                + p.lastModified()
                + " -> "
                + now.lastModified()
                + ")");
      }
    }
  }

  private void checkContentRange(ClassicHttpResponse r, long offset, long length, long size)
      throws SourceException {
    Matcher m = contentRange(r);
    if (m == null) {
      throw new SourceException.BadRangeException(
          uri,
          "Content-Range '"
              + header(r, "Content-Range")
              + "' does not answer bytes="
              + offset
              + "-"
              + (offset + length - 1));
    }
    long first = Long.parseLong(m.group(1));
    long last = Long.parseLong(m.group(2));
    boolean sizeOk = m.group(3).equals("*") || size < 0 || Long.parseLong(m.group(3)) == size;
    if (first != offset || last != offset + length - 1 || !sizeOk) {
      throw new SourceException.BadRangeException(
          uri,
          "Content-Range '"
              + header(r, "Content-Range")
              + "' does not answer bytes="
              + offset
              + "-"
              + (offset + length - 1)
              + (size < 0 ? "" : "/" + size));
    }
  }

  /**
   * Checks the whole-file answer of a server that ignores Range: status 200, the probed size and
   * the same version; the range must lie inside the file.
   */
  void checkWhole(ClassicHttpResponse r, long offset, long length, Validators p)
      throws SourceException {
    if (r.getCode() != 200) {
      throw new SourceException.HttpStatusException(uri, r.getCode(), r.getReasonPhrase());
    }
    if (offset + length > p.size()) {
      throw new IllegalArgumentException(
          "range " + offset + "+" + length + " ends after the file's " + p.size() + " bytes");
    }
    long cl = contentLength(r);
    Validators now = new Validators(cl < 0 ? p.size() : cl, etag(r), header(r, "Last-Modified"));
    if (!p.sameVersion(now)) {
      throw new SourceException.ReplicaChangedException(
          uri,
          "file changed on the server (size "
              + p.size()
              + " -> "
              + now.size()
              + ", ETag "
              + p.etag()
              + " -> "
              + now.etag()
              + ")");
    }
  }

  /** The error for an answer with an unexpected status, with its {@code Retry-After} if any. */
  private SourceException.HttpStatusException statusError(ClassicHttpResponse r) {
    return new SourceException.HttpStatusException(
        uri,
        r.getCode(),
        r.getReasonPhrase(),
        RetryAfter.parse(header(r, "Retry-After"), Instant.now()));
  }

  private static long contentLength(ClassicHttpResponse r) {
    String cl = header(r, "Content-Length");
    try {
      return cl == null ? -1 : Long.parseLong(cl.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static Matcher contentRange(ClassicHttpResponse r) {
    String cr = header(r, "Content-Range");
    if (cr == null) {
      return null;
    }
    Matcher m = CONTENT_RANGE.matcher(cr.trim());
    return m.matches() ? m : null;
  }

  private static String etag(ClassicHttpResponse r) {
    return header(r, "ETag");
  }

  private static String header(ClassicHttpResponse r, String name) {
    Header h = r.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }
}
