package org.braid.coalloc.journal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One line of the client journal. The downloader writes it with {@link #toLine()}, and every reader
 * parses it with {@link #parse(String)}, so writer and reader cannot drift apart.
 *
 * <p><b>Version 2</b> (written since 0.2): what one replica delivered in one download, once per
 * download and replica, when the download ends:
 *
 * <pre>
 * {"v":2,"download":"d1","url":"http://m1:80/data/a.bin","server":"m1:80","peer":"client.example",
 *  "path":"/data/a.bin","fileSize":4194304,"bytes":1048576,"received":1048576,
 *  "start":"2026-11-22T04:00:00.000Z","end":"2026-11-22T04:00:02.500Z","busyMs":2000,
 *  "requests":3,"failures":0,"connections":1,"sharedMs":1500,"replicas":2,"flows":2,
 *  "streams":1,"protocol":"http","result":"ok"}
 * </pre>
 *
 * {@code busyMs} is the time it was actually transferring (the union of its requests' spans, so
 * overlapping requests count once and waits between them not at all; each span starts after the
 * wait for a first byte that all its requests paid, the replica's shortest, which earlier writers
 * counted), and its rate is {@code received / busyMs}; {@code sharedMs} is the part of that time
 * during which another replica of the same download was transferring too; {@code connections},
 * {@code replicas} and {@code flows} are the most requests it had open at once, the most replicas
 * transferring at once (itself included) and the most requests open at once over all replicas,
 * during its busy time.
 *
 * <p><b>Version 1</b> (0.x, read only by new code, written by {@link #toLine()} only for lines
 * parsed from or built as version 1): one request, with the keys {@code v, download, url, server,
 * peer, path, offset, bytes, fileSize, start, end, streams, protocol, result}. Parsed, it becomes a
 * line with {@code received = bytes}, {@code busy = end - start}, one request, one connection, and
 * the sharing fields unknown ({@code sharedMillis} -1, {@code replicas} and {@code flows} 0);
 * {@link #aggregate} merges the request lines of one download and replica into what version 2
 * records.
 *
 * <p>The parser accepts the keys in any order and any ISO-8601 time with an offset, and refuses a
 * missing, duplicate or unknown key. Versioning: a reader refuses a version it does not know; a new
 * field or meaning gets a new version, and readers keep reading the old ones.
 *
 * @param version 1 (a request) or 2 (a replica's share of a download)
 * @param download the download's id
 * @param url the replica's full URL
 * @param server the server as host:port
 * @param peer the client's host name
 * @param path the URL path
 * @param offset version 1: the first byte of the request; version 2: -1 (not written)
 * @param fileSize the whole file's size
 * @param bytes bytes put into the file
 * @param received bytes received, including ranges another replica delivered first (version 1:
 *     equal to {@code bytes})
 * @param start when the first request was sent (written with milliseconds)
 * @param end when the last one ended
 * @param busyMillis milliseconds during which at least one of its requests was transferring
 * @param requests requests made (version 1: 1)
 * @param failures failed requests among them
 * @param connections the most requests it had open at once (version 1: 1)
 * @param sharedMillis milliseconds of {@code busyMillis} during which another replica of the
 *     download was transferring too; -1 when unknown (version 1, and version 2 lines {@link
 *     #aggregate merged} from version 1 lines)
 * @param replicas the most replicas transferring at once during its busy time, itself included; 0
 *     when unknown (then {@code sharedMillis} is -1)
 * @param flows the most requests open at once over all replicas during its busy time; 0 when
 *     unknown (then {@code sharedMillis} is -1)
 * @param streams parallel streams per request (1 for HTTP)
 * @param protocol one of {@link #PROTOCOLS}
 * @param result "ok" or "error: reason"
 */
public record JournalLine(
    int version,
    String download,
    String url,
    String server,
    String peer,
    String path,
    long offset,
    long fileSize,
    long bytes,
    long received,
    Instant start,
    Instant end,
    long busyMillis,
    int requests,
    int failures,
    int connections,
    long sharedMillis,
    int replicas,
    int flows,
    int streams,
    String protocol,
    String result) {

  /** The version the downloader writes. */
  public static final int VERSION = 2;

  /** The protocols a line may name. */
  public static final Set<String> PROTOCOLS =
      Set.of("http", "https", "gsiftp", "ftp", "root", "roots", "file");

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
    String why = JournalChecks.problem(version, download, url, server, peer, path);
    if (why == null) {
      why =
          version == 1
              ? JournalChecks.requestProblem(offset, bytes, fileSize)
              : JournalChecks.deliveryProblem(offset, fileSize, bytes, received);
    }
    if (why == null) {
      why = JournalChecks.timeProblem(start, end, busyMillis, sharedMillis, version);
    }
    if (why == null) {
      why =
          JournalChecks.countProblem(
              version, requests, failures, connections, sharedMillis, replicas, flows);
    }
    if (why == null) {
      why = JournalChecks.problem(streams, protocol, result);
    }
    if (why != null) {
      throw new IllegalArgumentException(why);
    }
  }

  /**
   * A version 1 line: one request of {@code bytes} bytes from {@code offset}.
   *
   * @throws IllegalArgumentException naming the field when {@link #parse} would refuse it
   */
  public JournalLine(
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
    this(
        1,
        download,
        url,
        server,
        peer,
        path,
        offset,
        fileSize,
        bytes,
        bytes,
        start,
        end,
        JournalChecks.spanMillis(start, end),
        1,
        result != null && result.startsWith("error") ? 1 : 0,
        1,
        -1,
        0,
        0,
        streams,
        protocol,
        result);
  }

  /**
   * A builder of a version 2 line for one replica of a download.
   *
   * @throws NullPointerException if an argument is null
   */
  public static JournalLineBuilder delivery(
      String download, String url, String server, String peer, String path, String protocol) {
    return new JournalLineBuilder(download, url, server, peer, path, protocol);
  }

  /** The time it was transferring. */
  public Duration busy() {
    return Duration.ofMillis(busyMillis);
  }

  /**
   * Bytes per second while transferring: {@code received} over the busy time, or 0 when the busy
   * time is 0 (an instantaneous line measures nothing).
   */
  public double rate() {
    return busyMillis <= 0 ? 0 : received * 1000.0 / busyMillis;
  }

  /** Whether the line is a single request (version 1) rather than a replica's whole share. */
  public boolean isRequest() {
    return version == 1;
  }

  /**
   * The fewest bytes a replica must have delivered in one download for the broker's forecasts to
   * use it as a sample of that replica (fewer measure the start of a connection, not the replica):
   * 128 KiB. A dataset job writes no line for a file smaller than this fetched whole from one
   * server.
   */
  public static final long MIN_SAMPLE_BYTES = 128 * 1024;

  /**
   * Merges the lines of one download and one server (version 1 request lines, or version 2 lines)
   * into the version 2 line of what that replica delivered: bytes and requests added up, the busy
   * time the union of the request spans (version 2 lines, whose spans hold waits, add their busy
   * times instead, at most the whole span), the sharing fields the version 2 lines' (unknown when
   * any line is version 1), {@code ok} when any line is ok. The URL, peer and path are the first
   * line's.
   *
   * @throws IllegalArgumentException if the list is empty or the lines name different downloads or
   *     servers
   */
  public static JournalLine aggregate(List<JournalLine> lines) {
    return JournalAggregate.of(lines);
  }

  /**
   * The line (one JSON object, no newline), times in UTC with milliseconds, in its own version's
   * shape.
   */
  public String toLine() {
    StringWriter w = new StringWriter(384);
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeNumberField("v", version);
      g.writeStringField("download", download);
      g.writeStringField("url", url);
      g.writeStringField("server", server);
      g.writeStringField("peer", peer);
      g.writeStringField("path", path);
      if (version == 1) {
        g.writeNumberField("offset", offset);
        g.writeNumberField("bytes", bytes);
        g.writeNumberField("fileSize", fileSize);
        g.writeStringField("start", ISO_MS.format(start));
        g.writeStringField("end", ISO_MS.format(end));
      } else {
        g.writeNumberField("fileSize", fileSize);
        g.writeNumberField("bytes", bytes);
        g.writeNumberField("received", received);
        g.writeStringField("start", ISO_MS.format(start));
        g.writeStringField("end", ISO_MS.format(end));
        g.writeNumberField("busyMs", busyMillis);
        g.writeNumberField("requests", requests);
        g.writeNumberField("failures", failures);
        g.writeNumberField("connections", connections);
        g.writeNumberField("sharedMs", sharedMillis);
        g.writeNumberField("replicas", replicas);
        g.writeNumberField("flows", flows);
      }
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
   * Parses one line of version 1 or 2.
   *
   * @throws MalformedException with a short stable reason (e.g. "missing key end") and the
   *     offending detail
   */
  public static JournalLine parse(String line) throws MalformedException {
    Map<String, Object> v = JournalFields.read(line, JSON);
    Object version = v.get("v");
    if (version == null) {
      throw new MalformedException("missing key v", "");
    }
    List<String> keys;
    if (Long.valueOf(1).equals(version)) {
      keys = JournalFields.KEYS_V1;
    } else if (Long.valueOf(2).equals(version)) {
      keys = JournalFields.KEYS_V2;
    } else {
      throw new MalformedException("unsupported version", String.valueOf(version));
    }
    for (String k : v.keySet()) {
      if (!keys.contains(k)) {
        throw new MalformedException("unknown key", k);
      }
    }
    for (String k : keys) {
      if (!v.containsKey(k)) {
        throw new MalformedException("missing key " + k, "");
      }
    }
    try {
      return keys == JournalFields.KEYS_V1 ? JournalFields.v1(v) : JournalFields.v2(v);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      int colon = m.indexOf(": ");
      throw colon < 0
          ? new MalformedException(m, "")
          : new MalformedException(m.substring(0, colon), m.substring(colon + 2));
    }
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
