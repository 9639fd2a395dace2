package org.braid.coalloc;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The format of a part file's control file ({@code OUT.braid-ctl}): a magic line, the file's size,
 * one line per replica with its validators, and the verified byte ranges. Reading it back accepts
 * it only for the same size, a replica in common serving the same version, and a part file of the
 * full size; anything else (damaged, planted, too large) means starting over.
 */
final class ControlFile {
  private static final Logger LOG = LoggerFactory.getLogger(ControlFile.class);
  private static final String MAGIC = "braid-ctl 1";

  /** A control file larger than this is not read (it would be damaged or planted). */
  private static final long MAX_CONTROL = 64L << 20;

  private final Path ctl;
  private final Path part;
  private final long size;
  private final Map<URI, Validators> validators;

  /**
   * The control file {@code ctl} of the part file {@code part}; {@code validators} is not copied.
   */
  ControlFile(Path ctl, Path part, long size, Map<URI, Validators> validators) {
    this.ctl = ctl;
    this.part = part;
    this.size = size;
    this.validators = validators;
  }

  /** Writes the control file's content for the given committed ranges. */
  void write(BufferedWriter w, RangeSet committed) throws IOException {
    w.write(MAGIC + "\n");
    w.write("size\t" + size + "\n");
    for (Map.Entry<URI, Validators> e : validators.entrySet()) {
      w.write(
          "replica\t"
              + e.getKey()
              + "\t"
              + dash(e.getValue().etag())
              + "\t"
              + dash(e.getValue().lastModified())
              + "\n");
    }
    for (ByteRange r : committed.list()) {
      w.write("done\t" + r.start() + "\t" + r.end() + "\n");
    }
  }

  private static String dash(String s) {
    return s == null ? "-" : s.replace('\t', ' ').replace('\n', ' ');
  }

  /**
   * The ranges recorded by the control file, or null if it is missing, damaged or written for
   * another download (logged): the download then starts over.
   */
  RangeSet read() throws IOException {
    if (!Files.isRegularFile(ctl, LinkOption.NOFOLLOW_LINKS)
        || !Files.isRegularFile(part, LinkOption.NOFOLLOW_LINKS)) {
      // missing, or something else at their names (a link is never followed): start over
      return null;
    }
    if (Files.size(ctl) > MAX_CONTROL) {
      LOG.warn("{}: larger than {} bytes, starting over", ctl, MAX_CONTROL);
      return null;
    }
    List<String> lines;
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                Files.newInputStream(ctl, LinkOption.NOFOLLOW_LINKS), StandardCharsets.UTF_8))) {
      lines = r.lines().toList();
    } catch (UncheckedIOException e) {
      LOG.warn("{}: unreadable ({}), starting over", ctl, e.getMessage());
      return null;
    }
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
      LOG.warn("{}: not a braid control file, starting over", ctl);
      return null;
    }
    RangeSet done = new RangeSet();
    boolean common = false;
    try {
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.split("\t", -1);
        switch (f[0]) {
          case "size":
            if (Long.parseLong(f[1]) != size) {
              LOG.warn("{}: file size changed from {} to {}, starting over", ctl, f[1], size);
              return null;
            }
            break;
          case "replica":
            Validators now = validators.get(URI.create(f[1]));
            Validators then = new Validators(size, undash(f[2]), undash(f[3]));
            if (now != null && !now.sameVersion(then)) {
              LOG.warn("{}: {} now serves a different version, starting over", ctl, f[1]);
              return null;
            }
            common |= now != null;
            break;
          case "done":
            long s = Long.parseLong(f[1]);
            long e = Long.parseLong(f[2]);
            if (s < 0 || e > size || s > e) {
              throw new NumberFormatException("range " + s + "-" + e + " outside 0-" + size);
            }
            done.add(s, e);
            break;
          default:
            break;
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("{}: damaged control file ({}), starting over", ctl, e.getMessage());
      return null;
    }
    if (!common) {
      LOG.warn("{}: written from other replicas than these, starting over", ctl);
      return null;
    }
    if (Files.size(part) != size) {
      LOG.warn("{}: part file has the wrong size, starting over", part);
      return null;
    }
    return done;
  }

  private static String undash(String s) {
    return s.equals("-") ? null : s;
  }
}
