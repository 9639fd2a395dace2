package org.braid.infoprovider.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * One flow of a Braid download, as the client journal records it: the writer's side of the {@code
 * braid} log format (docs/provider.md), so the downloader and the provider cannot drift apart.
 * {@link #toJsonLine()} gives exactly the line {@link LogFormat#BRAID} parses.
 *
 * @param download the download's id
 * @param url the full URL the flow read from
 * @param server the server as host:port
 * @param peer the client's host name
 * @param path the URL path
 * @param offset the first byte of the range
 * @param bytes bytes moved
 * @param fileSize the whole file's size
 * @param start when the flow started
 * @param end when it ended
 * @param streams parallel streams (1 for HTTP)
 * @param protocol http, https, gsiftp, ftp or file
 * @param result "ok" or "error: reason"
 */
public record JournalFlow(
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

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * Checks the flow with the parser's rules.
   *
   * @throws NullPointerException if a field is null
   * @throws IllegalArgumentException naming the field when the parser would reject it
   */
  public JournalFlow {
    for (Object o :
        new Object[] {download, url, server, peer, path, start, end, protocol, result}) {
      Objects.requireNonNull(o, "journal flow fields must not be null");
    }
    if (offset < 0 || bytes < 0 || fileSize < 0 || offset > fileSize || bytes > fileSize - offset) {
      throw new IllegalArgumentException(
          "range outside the file: offset " + offset + " bytes " + bytes + " fileSize " + fileSize);
    }
    if (end.isBefore(start)) {
      throw new IllegalArgumentException("end " + end + " is before start " + start);
    }
    if (streams < 1) {
      throw new IllegalArgumentException("streams must be at least 1: " + streams);
    }
    if (!result.equals("ok") && !result.startsWith("error: ")) {
      throw new IllegalArgumentException("result must be ok or error: reason: " + result);
    }
  }

  /** The journal line (one JSON object, no newline). */
  public String toJsonLine() {
    StringWriter w = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeNumberField("v", 1);
      g.writeStringField("download", download);
      g.writeStringField("url", url);
      g.writeStringField("server", server);
      g.writeStringField("peer", peer);
      g.writeStringField("path", path);
      g.writeNumberField("offset", offset);
      g.writeNumberField("bytes", bytes);
      g.writeNumberField("fileSize", fileSize);
      g.writeStringField("start", start.toString());
      g.writeStringField("end", end.toString());
      g.writeNumberField("streams", streams);
      g.writeStringField("protocol", protocol);
      g.writeStringField("result", result);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string cannot fail", e);
    }
    return w.toString();
  }
}
