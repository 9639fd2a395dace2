package org.braid.coalloc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The record of verified files in a dataset's output directory ({@value DatasetOutput#STATE}): one
 * JSON line per file as it gets its final name, with its size, modification time and digests, so
 * that a later run of the same job skips it without fetching or hashing it again as long as the
 * file is unchanged (same size and modification time). Each line is written with one system call as
 * soon as the file is renamed, so a killed process loses at most the line of the file it was
 * renaming. Lines that cannot be read are ignored. Thread-safe.
 */
final class DatasetState implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetState.class);

  /** Made when a state file is first read: a job into a new directory does not load Jackson. */
  private static final class Reader {
    static final ObjectMapper JSON = new ObjectMapper();
  }

  private static final int MAX_LINE = 64 * 1024;

  /**
   * A verified file as recorded.
   *
   * @param size its size in bytes
   * @param mtime its modification time in milliseconds when recorded
   * @param digests its hex digests by algorithm name (always {@code sha-256})
   */
  record Done(long size, long mtime, Map<String, String> digests) {}

  private final Path file;
  private final Map<String, Done> done;
  private final FileChannel out;

  private DatasetState(Path file, Map<String, Done> done, FileChannel out) {
    this.file = file;
    this.done = done;
    this.out = out;
  }

  /**
   * Opens the state of the output directory: read when resuming (and rewritten without repeated
   * lines), else started afresh.
   *
   * @throws IOException if it cannot be read or written, or is not a regular file
   */
  static DatasetState open(Path dir, boolean resume) throws IOException {
    Path file = dir.resolve(DatasetOutput.STATE);
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(file + " is not a regular file");
    }
    Map<String, Done> done = new HashMap<>();
    int lines = 0;
    if (resume && Files.exists(file)) {
      lines = read(file, done);
    }
    if (!resume || lines > done.size()) {
      rewrite(file, done);
    }
    FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND,
            LinkOption.NOFOLLOW_LINKS);
    return new DatasetState(file, done, ch);
  }

  private static int read(Path file, Map<String, Done> done) throws IOException {
    int lines = 0;
    int bad = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        lines++;
        if (line.length() > MAX_LINE) {
          bad++;
          continue;
        }
        try {
          JsonNode n = Reader.JSON.readTree(line);
          Map<String, String> digests = new TreeMap<>();
          n.path("digests")
              .properties()
              .forEach(e -> digests.put(e.getKey(), e.getValue().asText()));
          String path = n.path("path").asText("");
          if (!DatasetNames.valid(path) || !n.path("size").canConvertToLong()) {
            bad++;
            continue;
          }
          done.put(
              path,
              new Done(n.get("size").asLong(), n.path("mtime").asLong(), Map.copyOf(digests)));
        } catch (IOException | RuntimeException e) {
          bad++;
        }
      }
    } catch (java.nio.charset.MalformedInputException e) {
      LOG.warn("{}: not UTF-8, starting a new record of verified files", file);
      done.clear();
      return Integer.MAX_VALUE;
    }
    if (bad > 0) {
      LOG.warn("{}: {} unreadable lines ignored", file, bad);
    }
    return lines;
  }

  private static void rewrite(Path file, Map<String, Done> done) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      for (Map.Entry<String, Done> e : new TreeMap<>(done).entrySet()) {
        w.write(line(e.getKey(), e.getValue()));
      }
    }
    try {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String line(String path, Done d) {
    StringBuilder sb = new StringBuilder("{\"path\":").append(Json.str(path));
    sb.append(",\"size\":").append(d.size()).append(",\"mtime\":").append(d.mtime());
    sb.append(",\"digests\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new TreeMap<>(d.digests()).entrySet()) {
      sb.append(first ? "" : ",").append(Json.str(e.getKey())).append(':');
      sb.append(Json.str(e.getValue()));
      first = false;
    }
    return sb.append("}}\n").toString();
  }

  /** The record of a path, or null. */
  synchronized Done get(String path) {
    return done.get(path);
  }

  /** How many files are recorded. */
  synchronized int size() {
    return done.size();
  }

  /**
   * Records a verified file (one line appended with one write).
   *
   * @throws IOException if the line cannot be written
   */
  synchronized void record(String path, long size, long mtime, Map<String, String> digests)
      throws IOException {
    Done d = new Done(size, mtime, Map.copyOf(new LinkedHashMap<>(digests)));
    done.put(path, d);
    ByteBuffer b = ByteBuffer.wrap(line(path, d).getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) {
      out.write(b);
    }
  }

  /** The state file. */
  Path file() {
    return file;
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
