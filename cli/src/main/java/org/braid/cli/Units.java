package org.braid.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of rates and URLs given on the command line. */
final class Units {
  private static final Pattern RATE =
      Pattern.compile(
          "([0-9]*\\.?[0-9]+(?:e[0-9]+)?)\\s*([kmgt]?)(b|bit|byte|B)?(?:/s)?",
          Pattern.CASE_INSENSITIVE);

  private Units() {}

  /**
   * Parses a rate: {@code 80Mbit/s}, {@code 10MB/s}, {@code 10M} (bytes), or plain bytes per
   * second. Decimal prefixes.
   */
  static double rate(String text) {
    Matcher m = RATE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "bad rate '" + text + "' (use e.g. 80Mbit/s, 10MB/s or bytes per second)");
    }
    double v = Double.parseDouble(m.group(1));
    switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k":
        v *= 1e3;
        break;
      case "m":
        v *= 1e6;
        break;
      case "g":
        v *= 1e9;
        break;
      case "t":
        v *= 1e12;
        break;
      default:
        break;
    }
    String unit = m.group(3);
    if (unit != null && (unit.equals("b") || unit.equalsIgnoreCase("bit"))) {
      v /= 8;
    }
    if (!(v > 0)) {
      throw new IllegalArgumentException("rate must be positive: '" + text + "'");
    }
    return v;
  }

  /** A URL, or a local path turned into a file: URL. */
  static URI url(String text) {
    if (!text.contains("://") && !text.startsWith("file:")) {
      return Path.of(text).toAbsolutePath().toUri();
    }
    try {
      URI u = new URI(text);
      if (u.getScheme() == null) {
        throw new IllegalArgumentException("URL has no scheme: '" + text + "'");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad URL '" + text + "': " + e.getReason(), e);
    }
  }
}
