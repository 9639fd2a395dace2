package org.braid.coalloc;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The rules every relative path of a dataset obeys, whatever its source (a catalog, an input list,
 * a server's directory listing): the same check runs on names from each of them and again before a
 * file is written under the output directory. Stateless and thread-safe.
 *
 * <p>A relative path is one or more segments separated by {@code /}: at most {@value #MAX_LENGTH}
 * characters in all and {@value #MAX_SEGMENT_BYTES} bytes (UTF-8) per segment; no empty segment, no
 * {@code .} or {@code ..} (no traversal), no leading {@code /} or {@code ~} and no drive letter
 * (nothing absolute), no backslash, no control character (C0, DEL, C1) and no unpaired surrogate.
 * Spaces, Unicode and shell metacharacters ({@code $ ` ' " ; & | * ?}) are allowed: they are only
 * ever used as file names, never given to a shell.
 */
public final class DatasetNames {

  /** The longest relative path, in characters. */
  public static final int MAX_LENGTH = 4096;

  /** The longest segment, in UTF-8 bytes (the usual file-name limit). */
  public static final int MAX_SEGMENT_BYTES = 255;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private DatasetNames() {}

  /**
   * Checks a relative path.
   *
   * @return the path, unchanged
   * @throws NullPointerException if the path is null
   * @throws IllegalArgumentException naming the rule the path breaks (the path is shown escaped)
   */
  public static String check(String path) {
    String why = problem(path);
    if (why != null) {
      throw new IllegalArgumentException(why + ": " + shown(path));
    }
    return path;
  }

  /** Whether the path obeys the rules of {@link #check}. */
  public static boolean valid(String path) {
    return problem(path) == null;
  }

  /**
   * What is wrong with the path, or null when it obeys the rules.
   *
   * @throws NullPointerException if the path is null
   */
  public static String problem(String path) {
    Objects.requireNonNull(path, "path");
    if (path.isEmpty()) {
      return "empty path";
    }
    if (path.length() > MAX_LENGTH) {
      return "path longer than " + MAX_LENGTH + " characters";
    }
    char[] cs = path.toCharArray(); // indexed, not charAt per character: cheaper in a cold JVM
    for (int i = 0; i < cs.length; i++) {
      char c = cs[i];
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        return "control character in path";
      }
      if (c == '\\') {
        return "backslash in path";
      }
      if (Character.isHighSurrogate(c)
          ? i + 1 >= cs.length || !Character.isLowSurrogate(cs[++i])
          : Character.isLowSurrogate(c)) {
        return "invalid Unicode (unpaired surrogate) in path";
      }
    }
    if (path.startsWith("/")
        || path.startsWith("~")
        || (path.length() > 1
            && path.charAt(1) == ':'
            && Character.isLetter(path.charAt(0))
            && path.charAt(0) < 0x80)) {
      return "path is not relative";
    }
    // segments found by hand (no split, no encoding unless a segment may be too long: a
    // character takes at most 3 bytes of UTF-8, a surrogate pair 4)
    for (int start = 0, end; start <= path.length(); start = end + 1) {
      end = path.indexOf('/', start);
      end = end < 0 ? path.length() : end;
      int len = end - start;
      if (isTraversal(path, start, len)) {
        return "path has an empty, '.' or '..' segment (traversal)";
      }
      if (len * 3 > MAX_SEGMENT_BYTES
          && path.substring(start, end).getBytes(StandardCharsets.UTF_8).length
              > MAX_SEGMENT_BYTES) {
        return "path segment longer than " + MAX_SEGMENT_BYTES + " bytes";
      }
    }
    return null;
  }

  /**
   * Whether a '/'-separated path has an empty, '.' or '..' segment (a path traversal), found
   * without splitting it.
   */
  public static boolean hasTraversalSegment(String path) {
    for (int start = 0, end; start <= path.length(); start = end + 1) {
      end = path.indexOf('/', start);
      end = end < 0 ? path.length() : end;
      if (isTraversal(path, start, end - start)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isTraversal(String path, int start, int len) {
    return len == 0
        || (path.charAt(start) == '.' && (len == 1 || (len == 2 && path.charAt(start + 1) == '.')));
  }

  /**
   * The path with its control characters and backslashes escaped and at most 120 characters, for
   * messages: a hostile name cannot rewrite a terminal line or a log.
   */
  public static String shown(String path) {
    StringBuilder sb = new StringBuilder("'");
    int n = 0;
    for (int i = 0; i < path.length() && n < 120; i++, n++) {
      char c = path.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\\' || c == '\'') {
        sb.append(String.format("\\x%02x", (int) c));
      } else if (Character.isSurrogate(c)
          && !(Character.isHighSurrogate(c)
              && i + 1 < path.length()
              && Character.isLowSurrogate(path.charAt(i + 1)))
          && !(Character.isLowSurrogate(c)
              && i > 0
              && Character.isHighSurrogate(path.charAt(i - 1)))) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (path.length() > 120) {
      sb.append("...");
    }
    return sb.append('\'').toString();
  }

  /**
   * The URL of a relative path under a directory URL: each segment percent-encoded (everything but
   * letters, digits and {@code -._~}) and appended to the directory's path.
   *
   * @throws IllegalArgumentException if the path breaks the rules of {@link #check}
   */
  public static URI resolve(URI directory, String path) {
    check(path);
    String base = directory.toString();
    if (!base.endsWith("/")) {
      base = base + "/";
    }
    return URI.create(base + encode(path));
  }

  /** The path with each segment percent-encoded in UTF-8, separators kept. */
  static String encode(String path) {
    StringBuilder sb = new StringBuilder(path.length() + 16);
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~'
          || c == '/') {
        sb.append((char) c);
      } else {
        sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return sb.toString();
  }
}
