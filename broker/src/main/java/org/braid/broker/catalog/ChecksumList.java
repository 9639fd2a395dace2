package org.braid.broker.catalog;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a checksum list as {@code sha256sum}, {@code sha1sum}, {@code md5sum} and {@code sha512sum}
 * write it ({@code HEX NAME}, or {@code HEX *NAME} in binary mode; a line starting with a backslash
 * has {@code \\n} and {@code \\\\} escaped in its name), or in the BSD tagged format ({@code SHA256
 * (NAME) = HEX}). The algorithm follows from the tag or the digest's length (32 hex digits md5, 40
 * sha-1, 64 sha-256, 128 sha-512). A leading {@code ./} is dropped from names. Blank lines and
 * {@code #} comments are skipped.
 */
final class ChecksumList {
  private static final Pattern GNU = Pattern.compile("(\\\\?)([0-9a-fA-F]+) [ *](.+)");
  private static final Pattern BSD =
      Pattern.compile(
          "(?i)(md5|sha1|sha256|sha512|sha-1|sha-256|sha-512) \\((.+)\\) = ([0-9a-f]+)");

  private ChecksumList() {}

  /** Digests by file name, then by algorithm ({@code md5}, {@code sha-1}, ...). */
  static Map<String, Map<String, String>> parse(String text, String source, CatalogLimits limits)
      throws CatalogException {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    int lineNo = 0;
    for (String line : text.split("\r?\n", -1)) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String where = source + ":" + lineNo;
      String name;
      String algo;
      String hex;
      Matcher b = BSD.matcher(line.strip());
      Matcher g = GNU.matcher(line);
      if (b.matches()) {
        algo = b.group(1).toLowerCase(Locale.ROOT).replace("-", "");
        algo = algo.startsWith("sha") ? "sha-" + algo.substring(3) : algo;
        name = b.group(2);
        hex = b.group(3).toLowerCase(Locale.ROOT);
      } else if (g.matches()) {
        hex = g.group(2).toLowerCase(Locale.ROOT);
        name = g.group(1).isEmpty() ? g.group(3) : unescape(g.group(3), where);
        algo =
            switch (hex.length()) {
              case 32 -> "md5";
              case 40 -> "sha-1";
              case 64 -> "sha-256";
              case 128 -> "sha-512";
              default ->
                  throw new CatalogException(
                      where + ": a digest of " + hex.length() + " hex digits is no known checksum");
            };
      } else {
        throw new CatalogException(
            where
                + ": not a checksum line ('HEX  NAME' as sha256sum writes, or 'SHA256 (NAME) = HEX')");
      }
      while (name.startsWith("./")) {
        name = name.substring(2);
      }
      Catalogs.checkName(name, where);
      if (!out.containsKey(name) && out.size() >= limits.maxFiles()) {
        throw new CatalogException(where + ": more than " + limits.maxFiles() + " files");
      }
      String before = out.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(algo, hex);
      if (before != null && !before.equals(hex)) {
        throw new CatalogException(where + ": two different " + algo + " digests for " + name);
      }
    }
    return out;
  }

  private static String unescape(String s, String where) throws CatalogException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        sb.append(c);
      } else if (i + 1 < s.length() && s.charAt(i + 1) == 'n') {
        sb.append('\n');
        i++;
      } else if (i + 1 < s.length() && s.charAt(i + 1) == '\\') {
        sb.append('\\');
        i++;
      } else {
        throw new CatalogException(where + ": bad escape in the file name");
      }
    }
    return sb.toString();
  }
}
