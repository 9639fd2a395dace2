package org.braid.coalloc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the files of a dataset go: each relative path under the output directory, checked the same
 * way whatever the dataset's source. The path obeys {@link DatasetNames}; no existing part of it
 * may be a symbolic link or a special file (nothing is followed out of the directory, no device is
 * written); the final file and its temporary files ({@code .part}, {@code .braid-ctl}) are regular
 * files or absent. Thread-safe.
 */
final class DatasetOutput {

  /** The job's record of verified files in the output directory ({@link DatasetState}). */
  static final String STATE = ".braid-dataset";

  /** Suffixes of the temporary files next to a file being fetched. */
  static final List<String> TEMPORARY =
      List.of(".part", ".dup.part", ".braid-ctl", ".braid-ctl.tmp");

  final Path dir;

  /** Directories under {@link #dir} found to be real directories (not links) by this job. */
  private final Set<Path> checked = ConcurrentHashMap.newKeySet();

  /**
   * Directories this job created: they hold only what the job wrote, so the files in them need no
   * check for links or special files before they are written.
   */
  private final Set<Path> created = ConcurrentHashMap.newKeySet();

  private DatasetOutput(Path dir) {
    this.dir = dir;
  }

  /**
   * Opens the output directory, creating it (and its parents) if missing.
   *
   * @throws IOException if it exists and is not a directory, or cannot be created
   */
  static DatasetOutput open(Path dir) throws IOException {
    Path abs = dir.toAbsolutePath();
    if (Files.exists(abs) && !Files.isDirectory(abs)) {
      throw new IOException("output directory " + dir + " exists and is not a directory");
    }
    boolean existed = Files.isDirectory(abs);
    Files.createDirectories(abs);
    DatasetOutput o = new DatasetOutput(abs.toRealPath());
    if (!existed) {
      o.created.add(o.dir);
    }
    return o;
  }

  /**
   * The final path of a relative path.
   *
   * @throws IllegalArgumentException if the path breaks the rules of {@link DatasetNames}
   */
  Path target(String relative) {
    DatasetNames.check(relative);
    Path p = dir;
    for (String seg : relative.split("/")) {
      p = p.resolve(seg);
    }
    if (!p.normalize().startsWith(dir) || p.equals(dir)) {
      throw new IllegalArgumentException("path leaves the output directory: " + relative);
    }
    return p;
  }

  /**
   * Makes the parent directories of a relative path and checks the final file and its temporary
   * files; returns the final path.
   *
   * @throws IOException naming the offending path: an existing part that is a link or not a
   *     directory, a final or temporary file that exists and is not a regular file
   */
  Path prepare(String relative) throws IOException {
    Path target = target(relative);
    Path cur = dir;
    String[] segs = relative.split("/");
    for (int i = 0; i < segs.length - 1; i++) {
      cur = cur.resolve(segs[i]);
      if (checked.contains(cur)) {
        continue;
      }
      BasicFileAttributes a = attributes(cur);
      if (a == null) {
        try {
          Files.createDirectory(cur);
          created.add(cur);
          checked.add(cur);
          continue;
        } catch (FileAlreadyExistsException e) {
          a = attributes(cur);
        }
      }
      if (a == null || !a.isDirectory() || a.isSymbolicLink()) {
        throw new IOException(
            dir.relativize(cur) + " exists and is not a directory (or is a symbolic link)");
      }
      checked.add(cur);
    }
    if (created.contains(target.getParent())) {
      return target; // only this job's own files in there
    }
    requireRegularOrAbsent(target);
    for (String suffix : TEMPORARY) {
      requireRegularOrAbsent(target.resolveSibling(target.getFileName() + suffix));
    }
    return target;
  }

  /**
   * The final file if it exists and is a regular file (not a link), else null.
   *
   * @throws IOException on failures other than absence
   */
  BasicFileAttributes existing(String relative) throws IOException {
    BasicFileAttributes a = attributes(target(relative));
    return a != null && a.isRegularFile() ? a : null;
  }

  /**
   * Whether the directory that would hold the relative path exists (a directory or a link to one),
   * looked up once per directory in {@code seen}: when it does not, neither does the file nor any
   * of its temporary files.
   */
  boolean parentExists(String relative, Map<Path, Boolean> seen) {
    Path parent = target(relative).getParent();
    return seen.computeIfAbsent(parent, p -> Files.isDirectory(p));
  }

  private void requireRegularOrAbsent(Path p) throws IOException {
    BasicFileAttributes a = attributes(p);
    if (a != null && !a.isRegularFile()) {
      throw new IOException(
          dir.relativize(p)
              + " exists and is not a regular file ("
              + (a.isSymbolicLink()
                  ? "a symbolic link"
                  : a.isDirectory() ? "a directory" : "special")
              + "); not writing there");
    }
  }

  private static BasicFileAttributes attributes(Path p) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * The files of a dataset that cannot be written beside the others, by index, with the reason: a
   * path that is also another file's directory, a path that is another file's temporary file, the
   * job's own state file, or a name too long for its temporary files. The first of two claimants
   * keeps the name.
   */
  /**
   * Why a file at {@code path} cannot be written whatever the other files are called (braid's own
   * state file, a name too long for its temporary files), or null. Shared by {@link #conflicts} and
   * {@link DatasetClaims}.
   */
  static String unwritable(String path) {
    if (path.equals(STATE) || path.startsWith(STATE + ".")) {
      return "the name of braid's own state file";
    }
    String last = path.substring(path.lastIndexOf('/') + 1);
    if (last.getBytes(StandardCharsets.UTF_8).length
        > DatasetNames.MAX_SEGMENT_BYTES - ".braid-ctl.tmp".length()) {
      return "name too long for its temporary files";
    }
    return null;
  }

  static Map<Integer, String> conflicts(List<DatasetFile> files) {
    Map<String, Integer> names = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      names.putIfAbsent(files.get(i).path(), i);
    }
    Set<String> dirs = new HashSet<>();
    for (DatasetFile f : files) {
      String p = f.path();
      for (int k = p.indexOf('/'); k >= 0; k = p.indexOf('/', k + 1)) {
        dirs.add(p.substring(0, k));
      }
    }
    Map<Integer, String> out = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      String p = files.get(i).path();
      if (names.get(p) != i) {
        out.put(i, "listed twice");
      } else if (unwritable(p) != null) {
        out.put(i, unwritable(p));
      } else if (dirs.contains(p)) {
        out.put(i, "also a directory of other files of the dataset");
      } else {
        for (String suffix : TEMPORARY) {
          if (p.endsWith(suffix)) {
            Integer owner = names.get(p.substring(0, p.length() - suffix.length()));
            if (owner != null) {
              out.put(i, "collides with the temporary file of " + files.get(owner).path());
            }
          }
        }
      }
    }
    return out;
  }
}
