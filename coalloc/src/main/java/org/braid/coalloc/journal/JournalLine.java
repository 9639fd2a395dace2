package org.braid.coalloc.journal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One line of the client journal (version 1): a request of a download that put bytes into the file,
 * or failed. The downloader writes it with {@link #toLine()}, and every reader parses it with
 * {@link #parse(String)}, so writer and reader cannot drift apart. The line is one JSON object with
 * exactly these keys, in this order:
 *
 * <pre>
 * {"v":1,"download":"d1","url":"http://m1:80/data/a.bin","server":"m1:80","peer":"client.example",
 *  "path":"/data/a.bin","offset":0,"bytes":1048576,"fileSize":4194304,
 *  "start":"2026-11-22T04:00:00.000Z","end":"2026-11-22T04:00:02.000Z","streams":1,
 *  "protocol":"http","result":"ok"}
 * </pre>
 *
 * The parser accepts the keys in any order and any ISO-8601 time with an offset, and refuses a
 * missing, duplicate or unknown key. Versioning: a reader refuses a version it does not know; a new
 * field or meaning gets a new version, and readers keep reading the old ones.
 *
 * @param download the download's id
 * @param url the full URL the request read from
 * @param server the server as host:port
 * @param peer the client's host name
 * @param path the URL path
 * @param offset the first byte of the range
 * @param bytes bytes put into the file
 * @param fileSize the whole file's size
 * @param start when the request started (written with milliseconds)
 * @param end when it ended
 * @param streams parallel streams (1 for HTTP)
 * @param protocol one of {@link #PROTOCOLS}
 * @param result "ok" or "error: reason"
 */
public record JournalLine(
    String download,
    String url,
    String server,
    String peer,
    String path,
    long offset,
    long bytes,
    long fileSize,
    Instant start,
    Instant end,
    int streams,
    String protocol,
    String result) {

  /** The version this class writes. */
  public static final int VERSION = 1;

  /** The protocols a line may name. */
  public static final Set<String> PROTOCOLS =
      Set.of("http", "https", "gsiftp", "ftp", "root", "roots", "file");

  /** The keys of a line, in the order they are written. */
  static final List<String> KEYS =
      List.of(
          "v",
          "download",
          "url",
          "server",
          "peer",
          "path",
          "offset",
          "bytes",
          "fileSize",
          "start",
          "end",
          "streams",
          "protocol",
          "result");

  private static final DateTimeFormatter ISO_MS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(2)
                  .maxNumberLength(20)
                  .maxStringLength(1 << 20)
                  .build())
          .build();

  /**
   * Checks the fields with the parser's rules.
   *
   * @throws NullPointerException if a field is null
   * @throws IllegalArgumentException naming the field when {@link #parse} would refuse it
   */
  public JournalLine {
    for (Object o :
        new Object[] {download, url, server, peer, path, start, end, protocol, result}) {
      Objects.requireNonNull(o, "journal line fields must not be null");
    }
    String why = problem(download, url, server, peer, path, offset, bytes, fileSize, start, end);
    if (why == null) {
      why = problem(streams, protocol, result);
    }
    if (why != null) {
      throw new IllegalArgumentException(why);
    }
  }

  /** The reason such a line is refused, or null. */
  private static String problem(
      String download,
      String url,
      String server,
      String peer,
      String path,
      long offset,
      long bytes,
      long fileSize,
      Instant start,
      Instant end) {
    String[] names = {"download", "url", "server", "peer", "path"};
    String[] values = {download, url, server, peer, path};
    for (int i = 0; i < names.length; i++) {
      if (values[i].isEmpty()) {
        return "empty " + names[i];
      }
    }
    if (offset < 0 || bytes < 0 || fileSize < 0) {
      return "negative " + (offset < 0 ? "offset" : bytes < 0 ? "bytes" : "fileSize");
    }
    if (offset > fileSize || bytes > fileSize - offset) {
      return "range outside the file: offset "
          + offset
          + " bytes "
          + bytes
          + " fileSize "
          + fileSize;
    }
    if (end.isBefore(start)) {
      return "end before start: " + start + " " + end;
    }
    return null;
  }

  private static String problem(int streams, String protocol, String result) {
    if (streams < 1 || streams > 65_535) {
      return "bad number streams: " + streams;
    }
    if (!PROTOCOLS.contains(protocol)) {
      return "bad protocol: " + protocol;
    }
    if (!result.equals("ok") && !result.startsWith("error: ")) {
      return "bad result: " + result;
    }
    return null;
  }

  /** The line (one JSON object, no newline), times in UTC with milliseconds. */
  public String toLine() {
    StringWriter w = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeNumberField("v", VERSION);
      g.writeStringField("download", download);
      g.writeStringField("url", url);
      g.writeStringField("server", server);
      g.writeStringField("peer", peer);
      g.writeStringField("path", path);
      g.writeNumberField("offset", offset);
      g.writeNumberField("bytes", bytes);
      g.writeNumberField("fileSize", fileSize);
      g.writeStringField("start", ISO_MS.format(start));
      g.writeStringField("end", ISO_MS.format(end));
      g.writeNumberField("streams", streams);
      g.writeStringField("protocol", protocol);
      g.writeStringField("result", result);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string cannot fail", e);
    }
    return w.toString();
  }

  /**
   * Parses one line.
   *
   * @throws MalformedException with a short stable reason (e.g. "missing key end") and the
   *     offending detail
   */
  public static JournalLine parse(String line) throws MalformedException {
    Object[] v = fields(line);
    if (!Long.valueOf(VERSION).equals(v[0])) {
      throw new MalformedException("unsupported version", String.valueOf(v[0]));
    }
    long streams = number(v, 11);
    if (streams > 65_535) {
      throw new MalformedException("bad number streams", String.valueOf(streams));
    }
    try {
      return new JournalLine(
          text(v, 1),
          text(v, 2),
          text(v, 3),
          text(v, 4),
          text(v, 5),
          number(v, 6),
          number(v, 7),
          number(v, 8),
          time(v, 9),
          time(v, 10),
          (int) streams,
          text(v, 12),
          text(v, 13));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      int colon = m.indexOf(": ");
      throw colon < 0
          ? new MalformedException(m, "")
          : new MalformedException(m.substring(0, colon), m.substring(colon + 2));
    }
  }

  /** The line's values in {@link #KEYS} order, each a Long or a String; all keys present. */
  private static Object[] fields(String line) throws MalformedException {
    Object[] v = new Object[KEYS.size()];
    try (JsonParser p = JSON.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedException("not a JSON object", "");
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        int k = KEYS.indexOf(key);
        if (k < 0) {
          throw new MalformedException("unknown key", key);
        }
        if (v[k] != null) {
          throw new MalformedException("duplicate key", key);
        }
        JsonToken value = p.nextToken();
        if (value == JsonToken.VALUE_NUMBER_INT) {
          v[k] = p.getLongValue();
        } else if (value == JsonToken.VALUE_STRING) {
          v[k] = p.getText();
        } else {
          throw new MalformedException("bad value", key + " must be a string or an integer");
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedException("truncated line", "object not closed");
      }
      if (p.nextToken() != null) {
        throw new MalformedException("trailing data", "after the object");
      }
    } catch (IOException e) {
      throw new MalformedException("truncated line", firstLine(e.getMessage()));
    }
    for (int k = 0; k < v.length; k++) {
      if (v[k] == null) {
        throw new MalformedException("missing key " + KEYS.get(k), "");
      }
    }
    return v;
  }

  private static long number(Object[] v, int k) throws MalformedException {
    if (!(v[k] instanceof Long)) {
      throw new MalformedException("bad number " + KEYS.get(k), String.valueOf(v[k]));
    }
    long n = (Long) v[k];
    if (n < 0) {
      throw new MalformedException("negative " + KEYS.get(k), String.valueOf(n));
    }
    return n;
  }

  private static String text(Object[] v, int k) throws MalformedException {
    if (!(v[k] instanceof String)) {
      throw new MalformedException("bad value", KEYS.get(k) + " must be a string");
    }
    return (String) v[k];
  }

  private static Instant time(Object[] v, int k) throws MalformedException {
    String s = text(v, k);
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedException("bad timestamp " + KEYS.get(k), s);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /**
   * A line that is not a journal line. {@link #reason()} is short and stable (for counting
   * rejections); the message adds the detail. No stack trace: malformed lines are expected.
   */
  public static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String reason;
    private final String detail;

    MalformedException(String reason, String detail) {
      super(detail.isEmpty() ? reason : reason + ": " + detail, null, false, false);
      this.reason = reason;
      this.detail = detail;
    }

    /** The short reason, e.g. "missing key end". */
    public String reason() {
      return reason;
    }

    /** The offending value or context; may be empty. */
    public String detail() {
      return detail;
    }
  }
}
