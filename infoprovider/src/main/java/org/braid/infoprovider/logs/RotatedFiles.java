package org.braid.infoprovider.logs;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A live log and its rotated siblings on disk: which files to read, in which order, and opening one
 * at a stored offset.
 */
final class RotatedFiles {

  /** Suffixes logrotate gives: .1, .2.gz, -20261122, -20261122.gz, -2026-11-22.1, .gz. */
  private static final Pattern ROTATED_SUFFIX = Pattern.compile("([.-][0-9][0-9.-]*)?(\\.gz)?");

  private RotatedFiles() {}

  /**
   * The rotated siblings of {@code live} in its directory, oldest modification first (then by
   * name), followed by {@code live} itself if it is a regular file.
   */
  static List<Path> candidates(Path live) throws IOException {
    List<Path> rotated = new ArrayList<>();
    Path dir = live.getParent();
    String name = live.getFileName().toString();
    if (dir != null && Files.isDirectory(dir)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
        for (Path p : ds) {
          String n = p.getFileName().toString();
          if (n.length() > name.length()
              && n.startsWith(name)
              && ROTATED_SUFFIX.matcher(n.substring(name.length())).matches()
              && Files.isRegularFile(p)) {
            rotated.add(p);
          }
        }
      }
    }
    Map<Path, Long> mtime = new HashMap<>();
    for (Path p : rotated) {
      try {
        mtime.put(p, Files.getLastModifiedTime(p).toMillis());
      } catch (IOException e) {
        mtime.put(p, 0L);
      }
    }
    rotated.sort(Comparator.comparing((Path p) -> mtime.get(p)).thenComparing(Path::toString));
    if (Files.isRegularFile(live)) {
      rotated.add(live);
    }
    return rotated;
  }

  /** Opens {@code f} positioned at {@code offset}; null if a gzip file is shorter than that. */
  static InputStream openAt(Path f, boolean gz, long offset) throws IOException {
    if (!gz) {
      FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
      ch.position(offset);
      return new BufferedInputStream(Channels.newInputStream(ch), 65_536);
    }
    InputStream in = LogFiles.open(f);
    long skipped = 0;
    while (skipped < offset) {
      long s = in.skip(offset - skipped);
      if (s <= 0) {
        if (in.read() < 0) {
          in.close();
          return null;
        }
        s = 1;
      }
      skipped += s;
    }
    return in;
  }

  /** The file system's key of {@code f} (device and inode on Linux), or "" if unknown. */
  static String fileKey(Path f) {
    try {
      Object k = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
      return k == null ? "" : k.toString();
    } catch (IOException e) {
      return "";
    }
  }
}
