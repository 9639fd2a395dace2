package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whole-file checksums over HTTP: the request headers that ask for them and the parsers of the
 * answers, {@code Digest} (RFC 3230, with the algorithm names of its IANA registry: {@code adler32}
 * in hexadecimal as Rucio and FTS use it, {@code md5} and {@code sha-256} in base64) and {@code
 * Repr-Digest} (RFC 9530, a structured-field dictionary of byte sequences). Only digests of the
 * whole representation count: {@code Content-Digest} (of the bytes of one answer) is not read.
 * Unknown algorithms and malformed values are skipped. Pure.
 */
final class HttpDigests {
  private static final Logger LOG = LoggerFactory.getLogger(HttpDigests.class);

  /** RFC 3230 request, adler32 first: grid storage keeps it, others compute theirs on demand. */
  static final String WANT_DIGEST = "adler32, sha-256;q=0.5, md5;q=0.3";

  /** RFC 9530 request (preferences 1 to 10). */
  static final String WANT_REPR_DIGEST = "adler=3, sha-256=2, md5=1";

  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

  private HttpDigests() {}

  /**
   * The checksums in a {@code Repr-Digest} and a {@code Digest} header (either may be null), one
   * per algorithm, {@code Repr-Digest}'s first.
   */
  static List<Checksum> parse(String reprDigest, String digest) {
    List<Checksum> out = new ArrayList<>();
    if (reprDigest != null) {
      for (String member : reprDigest.split(",")) {
        add(out, reprMember(member));
      }
    }
    if (digest != null) {
      for (String member : digest.split(",")) {
        add(out, digestMember(member));
      }
    }
    return out;
  }

  private static void add(List<Checksum> out, Checksum c) {
    if (c != null && out.stream().noneMatch(x -> x.algorithm().equals(c.algorithm()))) {
      out.add(c);
    }
  }

  /** One {@code key=:base64:} member of Repr-Digest (parameters after ';' ignored); or null. */
  static Checksum reprMember(String member) {
    int eq = member.indexOf('=');
    if (eq < 1) {
      return null;
    }
    String key = member.substring(0, eq).trim().toLowerCase(Locale.ROOT);
    String value = member.substring(eq + 1);
    int semi = value.indexOf(';');
    value = (semi >= 0 ? value.substring(0, semi) : value).trim();
    String algo = reprAlgorithm(key);
    if (algo == null || value.length() < 2 || !value.startsWith(":") || !value.endsWith(":")) {
      return null;
    }
    return fromBytes(algo, value.substring(1, value.length() - 1), "Repr-Digest");
  }

  /** One {@code algorithm=value} member of RFC 3230's Digest; or null. */
  static Checksum digestMember(String member) {
    int eq = member.indexOf('=');
    if (eq < 1) {
      return null;
    }
    String key = member.substring(0, eq).trim().toLowerCase(Locale.ROOT);
    String value = member.substring(eq + 1).trim();
    String algo = digestAlgorithm(key);
    if (algo == null || value.isEmpty()) {
      return null;
    }
    if (algo.equals("adler32")) {
      // 1 to 8 hexadecimal digits, leading zeros optional (IANA registry)
      if (value.length() > 8 || !HEX.matcher(value).matches()) {
        LOG.debug("skipping malformed Digest adler32={}", value);
        return null;
      }
      return new Checksum(algo, "0".repeat(8 - value.length()) + value);
    }
    if (value.length() == Checksum.hexLength(algo) && HEX.matcher(value).matches()) {
      return new Checksum(algo, value); // some servers send hexadecimal instead of base64
    }
    return fromBytes(algo, value, "Digest");
  }

  private static Checksum fromBytes(String algo, String base64, String header) {
    byte[] b;
    try {
      b = Base64.getDecoder().decode(base64.trim());
    } catch (IllegalArgumentException e) {
      LOG.debug("skipping {} {} value that is not base64: {}", header, algo, base64);
      return null;
    }
    if (b.length * 2 != Checksum.hexLength(algo)) {
      LOG.debug("skipping {} {} value of {} bytes", header, algo, b.length);
      return null;
    }
    return new Checksum(algo, HexFormat.of().formatHex(b));
  }

  private static String reprAlgorithm(String key) {
    switch (key) {
      case "sha-256":
      case "sha-512":
      case "md5":
        return key;
      case "sha":
        return "sha-1";
      case "adler":
        return "adler32";
      default:
        return null;
    }
  }

  private static String digestAlgorithm(String key) {
    switch (key) {
      case "sha-256":
      case "sha-512":
      case "md5":
      case "adler32":
        return key;
      case "sha":
        return "sha-1";
      default:
        return null;
    }
  }
}
