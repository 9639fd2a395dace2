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
import java.util.Locale;
import java.util.Map;
import org.braid.coalloc.journal.JournalLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's transfer journal: one {@link JournalLine} per request (flow segment), appended under
 * a file lock so concurrent downloads do not interleave; see docs/download.md.
 */
final class Journal {
  private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
  private final Path path;
  private final String download;
  private final String peer;

  Journal(Path path, String download) {
    this.path = path;
    this.download = download;
    this.peer = hostname();
  }

  /** The journal file. */
  Path path() {
    return path;
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
      String line = line(e, uris.get(e.replica()), fileSize, start);
      if (line != null) {
        sb.append(line).append('\n');
      }
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

  /** The line of one request, or null (logged) if it cannot be one, e.g. a URL without a path. */
  String line(BlockEvent e, URI uri, long fileSize, Instant start) {
    String result = e.result().startsWith("error") ? e.result() : "ok";
    try {
      return line(e, uri, fileSize, start, result);
    } catch (IllegalArgumentException bad) {
      LOG.debug("[{}] not journaled: {}", download, bad.getMessage());
      return null;
    }
  }

  private String line(BlockEvent e, URI uri, long fileSize, Instant start, String result) {
    return new JournalLine(
            download,
            uri.toString(),
            server(uri),
            peer,
            uri.getPath() == null ? "" : uri.getPath(),
            e.offset(),
            e.written(),
            fileSize,
            start.plusNanos(e.startNanos()).truncatedTo(ChronoUnit.MILLIS),
            start.plusNanos(e.endNanos()).truncatedTo(ChronoUnit.MILLIS),
            e.streams(),
            uri.getScheme().toLowerCase(Locale.ROOT),
            result)
        .toLine();
  }

  static String server(URI uri) {
    String host = uri.getHost() == null ? "localhost" : uri.getHost();
    int port = uri.getPort();
    if (port < 0) {
      switch (uri.getScheme().toLowerCase(Locale.ROOT)) {
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
        case "root":
        case "roots":
          port = 1094;
          break;
        default:
          port = 0;
      }
    }
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
