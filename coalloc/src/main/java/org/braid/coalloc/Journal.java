package org.braid.coalloc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The client's transfer journal: one JSON line per request (flow segment), appended under a file
 * lock so concurrent downloads do not interleave. The line format is fixed (the provider's log
 * parser reads it); see docs/download.md.
 */
final class Journal {
  private final Path path;
  private final String download;
  private final String peer;

  Journal(Path path, String download) {
    this.path = path;
    this.download = download;
    this.peer = hostname();
  }

  /**
   * The default journal: {@code $BRAID_JOURNAL}, else {@code
   * ${XDG_DATA_HOME:-~/.local/share}/braid/journal.jsonl}.
   */
  static Path defaultPath(Map<String, String> env, String userHome) {
    String j = env.get("BRAID_JOURNAL");
    if (j != null && !j.isBlank()) {
      return Path.of(j);
    }
    String xdg = env.get("XDG_DATA_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(userHome, ".local", "share");
    return base.resolve("braid").resolve("journal.jsonl");
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /**
   * Appends one line per request that put bytes into the file, and one per failed request: the
   * {@code bytes} of all lines of a download add up to the file size (less any resumed part, plus
   * the bytes of pieces that failed their piece hash and were fetched again). A failed piece hash
   * gives one line with {@code bytes} 0 and an {@code error: piece ...} result per replica that
   * wrote some of the piece.
   */
  void append(List<BlockEvent> events, List<URI> uris, long fileSize, Instant start)
      throws IOException {
    StringBuilder sb = new StringBuilder();
    for (BlockEvent e : events) {
      if (e.written() <= 0 && !e.result().startsWith("error")) {
        continue; // lost a race: nothing of it is in the file
      }
      sb.append(line(e, uris.get(e.replica()), fileSize, start)).append('\n');
    }
    if (sb.length() == 0) {
      return;
    }
    Path dir = path.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    try (FileChannel ch =
        FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      FileLock lock = ch.lock();
      ByteBuffer b = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
      while (b.hasRemaining()) {
        ch.write(b);
      }
      lock.release();
    }
  }

  String line(BlockEvent e, URI uri, long fileSize, Instant start) {
    String protocol = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    String result = e.result().startsWith("error") ? e.result() : "ok";
    Instant s = start.plusNanos(e.startNanos()).truncatedTo(ChronoUnit.MILLIS);
    Instant t = start.plusNanos(e.endNanos()).truncatedTo(ChronoUnit.MILLIS);
    return "{\"v\":1,\"download\":"
        + Json.str(download)
        + ",\"url\":"
        + Json.str(uri.toString())
        + ",\"server\":"
        + Json.str(server(uri))
        + ",\"peer\":"
        + Json.str(peer)
        + ",\"path\":"
        + Json.str(uri.getPath() == null ? "" : uri.getPath())
        + ",\"offset\":"
        + e.offset()
        + ",\"bytes\":"
        + e.written()
        + ",\"fileSize\":"
        + fileSize
        + ",\"start\":"
        + Json.str(iso(s))
        + ",\"end\":"
        + Json.str(iso(t))
        + ",\"streams\":1,\"protocol\":"
        + Json.str(protocol)
        + ",\"result\":"
        + Json.str(result)
        + "}";
  }

  private static final java.time.format.DateTimeFormatter ISO_MS =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
          .withZone(java.time.ZoneOffset.UTC);

  /** An instant with milliseconds, e.g. {@code 2026-11-22T04:11:20.000Z}. */
  static String iso(Instant i) {
    return ISO_MS.format(i);
  }

  static String server(URI uri) {
    String host = uri.getHost() == null ? "localhost" : uri.getHost();
    int port = uri.getPort();
    if (port < 0) {
      switch (uri.getScheme().toLowerCase(java.util.Locale.ROOT)) {
        case "http":
          port = 80;
          break;
        case "https":
          port = 443;
          break;
        case "gsiftp":
          port = 2811;
          break;
        case "ftp":
          port = 21;
          break;
        default:
          port = 0;
      }
    }
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
