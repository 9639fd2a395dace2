package org.braid.coalloc;

import java.util.Locale;
import java.util.Objects;

/**
 * An expected whole-file digest, as given by {@code --checksum algo:hex} or a Metalink file.
 *
 * @param algorithm one of {@code sha-256}, {@code sha-512}, {@code sha-1}, {@code md5}, {@code
 *     adler32}
 * @param hex the expected value in lower-case hexadecimal
 */
public record Checksum(String algorithm, String hex) {
  /**
   * Normalises and checks the values.
   *
   * @throws IllegalArgumentException for an unknown algorithm or a malformed value
   */
  public Checksum {
    algorithm = normalise(Objects.requireNonNull(algorithm, "algorithm"));
    hex = Objects.requireNonNull(hex, "hex").trim().toLowerCase(Locale.ROOT);
    int want = hexLength(algorithm);
    if (hex.length() != want || !isHex(hex)) {
      throw new IllegalArgumentException(
          algorithm + " checksum must be " + want + " hexadecimal digits: '" + hex + "'");
    }
  }

  /** Lower-case hexadecimal digits only (a loop: no regular expression per file of a dataset). */
  private static boolean isHex(String s) {
    for (char c : s.toCharArray()) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses {@code algo:hex}, e.g. {@code sha256:9f86d08...}.
   *
   * @throws IllegalArgumentException if the text is not of that form
   */
  public static Checksum parse(String text) {
    int c = text.indexOf(':');
    if (c < 1) {
      throw new IllegalArgumentException(
          "checksum must look like algo:hex (sha256, sha1, md5 or adler32): '" + text + "'");
    }
    return new Checksum(text.substring(0, c), text.substring(c + 1));
  }

  /**
   * The canonical name of a digest algorithm.
   *
   * @throws IllegalArgumentException if unknown
   */
  public static String normalise(String algorithm) {
    switch (algorithm.toLowerCase(Locale.ROOT).replace("_", "-")) {
      case "sha-256":
      case "sha256":
        return "sha-256";
      case "sha-512":
      case "sha512":
        return "sha-512";
      case "sha-1":
      case "sha1":
        return "sha-1";
      case "md5":
        return "md5";
      case "adler32":
      case "adler-32":
        return "adler32";
      default:
        throw new IllegalArgumentException(
            "unknown checksum algorithm '"
                + algorithm
                + "' (use sha256, sha512, sha1, md5 or adler32)");
    }
  }

  /** The length in hex digits of a digest by a normalised algorithm. */
  static int hexLength(String algorithm) {
    switch (algorithm) {
      case "sha-512":
        return 128;
      case "sha-256":
        return 64;
      case "sha-1":
        return 40;
      case "md5":
        return 32;
      default:
        return 8;
    }
  }
}
