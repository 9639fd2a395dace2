package org.braid.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.braid.coalloc.DownloadException;

/**
 * Where {@code braid get -o OUT} writes, decided before any byte is fetched: {@code OUT} itself, or
 * the remote file's name inside {@code OUT} when it is a directory or ends in {@code /}. Standard
 * output ({@code -o -}) is refused: the file is written out of order, from several replicas at
 * once. An existing file is replaced only with {@code --force}. Stateless.
 */
final class OutputTarget {
  private OutputTarget() {}

  /**
   * The output file for {@code -o given}.
   *
   * @param remote the first replica's URL or the catalog's file name, for the remote name
   * @param force whether an existing regular file may be replaced
   * @throws IllegalArgumentException for {@code -} or a remote name that cannot be used
   * @throws DownloadException of kind OUTPUT for an existing file without force
   */
  static Path resolve(String given, String remote, boolean force) throws DownloadException {
    if (given.equals("-")) {
      throw new IllegalArgumentException(
          "-o -: braid cannot write to standard output (it writes the file out of order, from"
              + " several replicas at once, and verifies it before renaming); name a file, then"
              + " read it, e.g. braid get URL -o f && cat f");
    }
    Path out;
    try {
      out = Path.of(given);
      boolean intoDir = given.endsWith("/") || Files.isDirectory(out) && !Files.isSymbolicLink(out);
      if (intoDir) {
        out = out.resolve(remoteName(remote, given));
      }
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("-o " + given + ": not a valid path: " + e.getReason());
    }
    if (!force && Files.isRegularFile(out, LinkOption.NOFOLLOW_LINKS)) {
      throw new DownloadException(
          out
              + " already exists; use --force to replace it (an interrupted download resumes"
              + " from "
              + out.getFileName()
              + ".part without it)",
          null,
          DownloadException.Kind.OUTPUT);
    }
    return out;
  }

  /** The last path segment of the remote URL or name, checked to be a plain file name. */
  static String remoteName(String remote, String given) {
    String path = remote;
    try {
      URI u = URI.create(remote);
      if (u.getScheme() != null && u.getPath() != null) {
        path = u.getPath();
      }
    } catch (IllegalArgumentException e) {
      // a catalog name or local path: use as it is
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    if (name.isEmpty()
        || name.equals(".")
        || name.equals("..")
        || name.startsWith("-")
        || name.length() > 255
        || !name.chars().allMatch(c -> c >= 0x20 && c != 0x7f && c != '\\')) {
      throw new IllegalArgumentException(
          "-o "
              + given
              + ": cannot take a file name from "
              + remote
              + "; give the file's name, e.g. -o "
              + given
              + (given.endsWith("/") ? "" : "/")
              + "data.bin");
    }
    return name;
  }
}
