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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.braid.coalloc.journal.JournalLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's transfer journal: when a download run ends, one {@link JournalLine} (version 2) per
 * replica, saying what it delivered, appended under a file lock so concurrent downloads do not
 * interleave; see docs/download.md.
 */
final class Journal {
  /** Serializes the appends of this process. */
  private static final Object IN_PROCESS = new Object();

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
   * Appends one line per replica that made at least one request: what it delivered in this run of
   * the download ({@link Deliveries}). The {@code bytes} of a download's lines add up to the file
   * size, less any resumed part, plus the bytes of pieces that failed their piece hash and were
   * fetched again. A replica that was dropped, or that delivered nothing and failed, gets the
   * result {@code error: reason}.
   *
   * @param events every request of the download
   * @param replicas the replicas, by index (their URLs and why any was dropped)
   * @param fileSize the file's size
   * @param start when the transfer started (the events' time 0)
   */
  void append(List<BlockEvent> events, List<Outcome> replicas, long fileSize, Instant start)
      throws IOException {
    write(path, lines(events, replicas, fileSize, start));
  }

  /** The lines {@link #append} would write, each ending in a newline; empty for none. */
  String lines(List<BlockEvent> events, List<Outcome> replicas, long fileSize, Instant start) {
    StringBuilder sb = new StringBuilder();
    int[] streams = streams(events, replicas.size());
    for (Deliveries.Delivery d : Deliveries.of(events, replicas.size())) {
      String line = line(d, replicas.get(d.replica()), fileSize, start, streams[d.replica()]);
      if (line != null) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  /** Appends journal lines to the file under its lock (nothing for an empty text). */
  static void write(Path path, String lines) throws IOException {
    if (lines.isEmpty()) {
      return;
    }
    Path dir = path.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    // the file lock keeps other processes out; within this process (the downloads of a dataset
    // job) a second lock of the same file would throw OverlappingFileLockException
    synchronized (IN_PROCESS) {
      try (FileChannel ch =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND)) {
        FileLock lock = ch.lock();
        ByteBuffer b = ByteBuffer.wrap(lines.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
          ch.write(b);
        }
        lock.release();
      }
    }
  }

  /**
   * A replica as the journal needs it: its URL, and why it was dropped (null if it stayed in use).
   */
  record Outcome(URI uri, String dropReason) {}

  /**
   * The parallel streams of each replica's requests (GridFTP MODE E; 1 otherwise): the count that
   * delivered the most bytes, when the count changed during the download.
   */
  static int[] streams(List<BlockEvent> events, int replicas) {
    List<Map<Integer, Long>> bytes = new ArrayList<>();
    for (int r = 0; r < replicas; r++) {
      bytes.add(new TreeMap<>());
    }
    for (BlockEvent e : events) {
      if (e.replica() < replicas) {
        bytes
            .get(e.replica())
            .merge(e.streams(), Math.max(1, e.endOffset() - e.offset()), Long::sum);
      }
    }
    int[] out = new int[replicas];
    for (int r = 0; r < replicas; r++) {
      out[r] =
          bytes.get(r).entrySet().stream()
              .max(Map.Entry.comparingByValue())
              .map(Map.Entry::getKey)
              .orElse(1);
    }
    return out;
  }

  /** The line of one replica over one stream, or null (logged) if it cannot be one. */
  String line(Deliveries.Delivery d, Outcome replica, long fileSize, Instant start) {
    return line(d, replica, fileSize, start, 1);
  }

  /** The line of one replica, or null (logged) if it cannot be one, e.g. a URL without a path. */
  String line(Deliveries.Delivery d, Outcome replica, long fileSize, Instant start, int streams) {
    URI uri = replica.uri();
    String result = "ok";
    if (replica.dropReason() != null) {
      result = "error: " + replica.dropReason();
    } else if (d.bytes() == 0 && d.lastError() != null) {
      result = d.lastError().startsWith("error: ") ? d.lastError() : "error: " + d.lastError();
    }
    Instant from = start.plusNanos(d.startNanos()).truncatedTo(ChronoUnit.MILLIS);
    Instant to = start.plusNanos(d.endNanos()).truncatedTo(ChronoUnit.MILLIS);
    long span = to.toEpochMilli() - from.toEpochMilli();
    long busy = Math.min(span, d.busyNanos() / 1_000_000);
    try {
      return JournalLine.delivery(
              download,
              uri.toString(),
              server(uri),
              peer,
              uri.getPath() == null ? "" : uri.getPath(),
              uri.getScheme().toLowerCase(Locale.ROOT))
          .bytes(fileSize, d.bytes(), d.received())
          .time(from, to, busy)
          .requests(d.requests(), d.failures(), Math.min(d.connections(), d.requests()))
          .sharing(Math.min(busy, d.sharedNanos() / 1_000_000), d.replicas(), d.flows())
          .streams(streams)
          .result(result)
          .build()
          .toLine();
    } catch (IllegalArgumentException bad) {
      LOG.debug("[{}] not journaled: {}", download, bad.getMessage());
      return null;
    }
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
