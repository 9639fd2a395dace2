package org.braid.coalloc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Checks on the output before anything is fetched and again before the final rename: the directory
 * exists, and the name is free or holds a regular file (never replaced: a directory, a device such
 * as {@code /dev/null}, a pipe, a socket or a symbolic link). Stateless.
 */
final class OutputFiles {
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFSOCK = 0140000;

  private OutputFiles() {}

  /**
   * Fails unless {@code out} may be written and, if it exists, replaced.
   *
   * @throws DownloadException of kind {@link DownloadException.Kind#OUTPUT} naming the path and the
   *     problem
   */
  static void check(Path out) throws DownloadException {
    Path dir = out.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw refused("directory " + dir + " does not exist");
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(out, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    } catch (IOException e) {
      throw new DownloadException(
          "cannot look at " + out + ": " + PlainErrors.of(e), e, DownloadException.Kind.DISK);
    }
    if (!a.isRegularFile()) {
      throw refused(
          "refusing to replace "
              + out
              + ": it is "
              + what(out, a)
              + ", not a regular file (name a file to write)");
    }
  }

  /** "a directory", "a character device", ... */
  static String what(Path p, BasicFileAttributes a) {
    if (a.isDirectory()) {
      return "a directory";
    }
    if (a.isSymbolicLink()) {
      return "a symbolic link";
    }
    try {
      int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      switch (mode & S_IFMT) {
        case S_IFCHR:
          return "a character device";
        case S_IFBLK:
          return "a block device";
        case S_IFIFO:
          return "a named pipe";
        case S_IFSOCK:
          return "a socket";
        default:
          break;
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // no unix view: say less
    }
    return "a special file";
  }

  private static DownloadException refused(String message) {
    return new DownloadException(message, null, DownloadException.Kind.OUTPUT);
  }
}
