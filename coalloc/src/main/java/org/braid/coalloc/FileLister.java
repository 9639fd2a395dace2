package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists a local (or mounted) directory tree ({@code file:} URL). Symbolic links are not followed
 * and, like devices, sockets and pipes, are refused: only regular files and directories count. Not
 * thread-safe.
 */
final class FileLister extends TreeLister {
  private final Path base;

  /**
   * A lister for a {@code file:} directory URL.
   *
   * @throws IllegalArgumentException if the URL is not a file URL
   */
  FileLister(URI root, ListLimits limits) {
    super(root, limits, Ticker.system());
    if (!"file".equalsIgnoreCase(root.getScheme())) {
      throw new IllegalArgumentException("not a file: URL: " + root);
    }
    this.base = Path.of(root);
  }

  @Override
  List<Entry> children(String dir, int room) throws IOException {
    Path d = dir.isEmpty() ? base : base.resolve(dir);
    List<Entry> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
      for (Path p : s) {
        if (out.size() > room) {
          break; // the walk fails on the count
        }
        BasicFileAttributes a =
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String name = p.getFileName().toString();
        if (name.indexOf('\uFFFD') >= 0) {
          out.add(new Entry(name, Kind.OTHER, -1, "name is not valid UTF-8"));
        } else if (a.isRegularFile()) {
          out.add(new Entry(name, Kind.FILE, a.size(), null));
        } else if (a.isDirectory()) {
          out.add(new Entry(name, Kind.DIRECTORY, -1, null));
        } else {
          out.add(
              new Entry(
                  name,
                  Kind.OTHER,
                  -1,
                  a.isSymbolicLink()
                      ? "symbolic link, not followed"
                      : "special file (device, socket or pipe), not a regular file"));
        }
      }
    } catch (NoSuchFileException e) {
      throw new SourceException(root, "no such directory: " + d, false, e);
    } catch (NotDirectoryException e) {
      throw new SourceException(root, "not a directory: " + d, false, e);
    }
    out.sort((x, y) -> x.name().compareTo(y.name()));
    return out;
  }
}
