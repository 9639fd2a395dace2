package org.braid.broker.catalog;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads an input list in aria2's {@code -i} format: one file per entry, a line of its replica URLs
 * separated by tabs or spaces, followed by indented {@code key=value} option lines. Options: {@code
 * out=NAME} (the relative output path; default the last segment of the first URL), {@code dir=DIR}
 * (a relative directory the name goes under) and {@code checksum=TYPE=HEX} (e.g. {@code
 * sha-256=9f86...}, repeatable). aria2's transfer-tuning options ({@link #IGNORED}) are accepted
 * and ignored (braid tunes itself); any other option is an error naming the line. Blank lines and
 * lines starting with {@code #} are skipped. Read whole ({@link #parse}) or entry by entry ({@link
 * #start}, {@link #next}). Not thread-safe (one parse per instance).
 */
final class InputList {

  /** aria2 options that tune a transfer; braid accepts and ignores them. */
  static final Set<String> IGNORED =
      Set.of(
          "split",
          "max-connection-per-server",
          "min-split-size",
          "piece-length",
          "lowest-speed-limit",
          "max-download-limit",
          "continue",
          "allow-overwrite",
          "auto-file-renaming",
          "remote-time",
          "conditional-get",
          "always-resume",
          "max-tries",
          "retry-wait",
          "timeout",
          "connect-timeout");

  private final String source;
  private final CatalogLimits limits;
  private final Set<String> names = new HashSet<>();

  private List<Replica> urls;
  private int entryLine;
  private String out;
  private String dir;
  private Map<String, String> hashes;

  InputList(String source, CatalogLimits limits) {
    this.source = source;
    this.limits = limits;
  }

  ReplicaCatalog parse(String text) throws CatalogException {
    start(text);
    Map<String, CatalogFile> all = new LinkedHashMap<>();
    for (CatalogFile f = next(); f != null; f = next()) {
      all.put(f.name(), f);
    }
    if (all.isEmpty()) {
      throw new CatalogException(source + ": no URL in the list");
    }
    return new ReplicaCatalog(all, Map.of());
  }

  // the text being read and where the next line starts (next() reads on from there)
  private String text;
  private char[] cs; // the current line's characters
  private int length;
  private int at;
  private int lineNo;
  private CatalogFile ready;

  /** Starts reading {@code text} entry by entry ({@link #next()}). */
  void start(String t) {
    this.text = t;
    this.length = t.length();
    this.cs = new char[256];
    this.at = 0;
    this.lineNo = 0;
  }

  /**
   * The next entry of the text given to {@link #start}, or null at its end: an entry is read up to
   * the next entry line (its option lines follow it), so a bad line is found when the reading gets
   * there.
   *
   * @throws CatalogException naming the line of the first problem
   */
  CatalogFile next() throws CatalogException {
    while (ready == null && at <= length) {
      int start = at;
      int end = text.indexOf('\n', start);
      end = end < 0 ? length : end;
      at = end + 1;
      // the line's characters in a char[] the loops below index (no charAt call per character,
      // which in a cold JVM, interpreted, is most of the cost of a long list); one line at a time,
      // so the first entries cost no work on the rest of the list
      if (end - start > cs.length) {
        cs = new char[Math.max(end - start, 2 * cs.length)];
      }
      text.getChars(start, end, cs, 0);
      int stop = end > start && cs[end - 1 - start] == '\r' ? end - 1 : end;
      lineNo++;
      int from = start;
      int to = stop;
      while (from < to && Character.isWhitespace(cs[from - start])) {
        from++;
      }
      while (to > from && Character.isWhitespace(cs[to - 1 - start])) {
        to--;
      }
      if (from == to || cs[from - start] == '#') {
        continue;
      }
      if (cs[0] == ' ' || cs[0] == '\t') {
        option(text.substring(from, to), lineNo);
      } else {
        finish();
        entry(text, cs, start, from, to, lineNo);
      }
    }
    if (ready == null) {
      finish(); // the last entry
    }
    CatalogFile f = ready;
    ready = null;
    return f;
  }

  /**
   * The entry line {@code text[from, to)} (stripped; {@code cs} holds the line's characters from
   * {@code text[off]}): its URLs, separated by tabs or spaces.
   */
  private void entry(String text, char[] cs, int off, int from, int to, int lineNo)
      throws CatalogException {
    if (names.size() >= limits.maxFiles()) {
      throw new CatalogException(
          source + ":" + lineNo + ": more than " + limits.maxFiles() + " files");
    }
    String where = source + ":" + lineNo;
    urls = new ArrayList<>(4);
    // split by hand (no regular expression per line), control characters found on the way
    for (int i = from; i < to; ) {
      int end = i;
      boolean control = false;
      char c;
      while (end < to && (c = cs[end - off]) != ' ' && c != '\t') {
        control |= c < 0x20 || c == 0x7f;
        end++;
      }
      if (urls.size() >= limits.maxUrlsPerFile()) {
        throw new CatalogException(where + ": more than " + limits.maxUrlsPerFile() + " URLs");
      }
      // a substring of the text (its bytes copied as they are), not a String of the chars (which
      // a cold JVM compresses back to bytes one character at a time)
      String p = text.substring(i, end);
      Replica r = Replica.of(control ? Catalogs.parseUrl(p, where) : Catalogs.checkUrl(p, where));
      for (Replica other : urls) {
        if (Catalogs.sameUrl(other.uri(), r.uri())) {
          throw new CatalogException(where + ": URL listed twice: " + p);
        }
      }
      urls.add(r);
      i = end;
      while (i < to && (cs[i - off] == ' ' || cs[i - off] == '\t')) {
        i++;
      }
    }
    entryLine = lineNo;
    out = null;
    dir = null;
    hashes = new LinkedHashMap<>();
  }

  private void option(String t, int lineNo) throws CatalogException {
    if (urls == null) {
      throw new CatalogException(
          source + ":" + lineNo + ": an option line before the first URL line");
    }
    int eq = t.indexOf('=');
    if (eq < 1) {
      throw new CatalogException(source + ":" + lineNo + ": option must look like key=value");
    }
    String key = t.substring(0, eq).strip().toLowerCase(Locale.ROOT);
    String value = t.substring(eq + 1).strip();
    switch (key) {
      case "out" -> out = value;
      case "dir" -> dir = value;
      case "checksum" -> checksum(value, lineNo);
      default -> {
        if (!IGNORED.contains(key)) {
          throw new CatalogException(
              source
                  + ":"
                  + lineNo
                  + ": unknown option '"
                  + MetalinkParser.abbreviate(key)
                  + "' (braid reads out, dir and checksum; ignores "
                  + String.join(", ", IGNORED.stream().sorted().toList())
                  + ")");
        }
      }
    }
  }

  private void checksum(String value, int lineNo) throws CatalogException {
    int eq = value.indexOf('=');
    String hex = eq < 0 ? "" : value.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
    if (eq < 1 || !isHex(hex)) {
      throw new CatalogException(
          source + ":" + lineNo + ": checksum must look like TYPE=HEX, e.g. sha-256=9f86...");
    }
    hashes.put(value.substring(0, eq).strip().toLowerCase(Locale.ROOT), hex);
  }

  /** 1 to 256 lower-case hexadecimal digits (a loop: no regular expression per line). */
  static boolean isHex(String s) {
    if (s.isEmpty() || s.length() > 256) {
      return false;
    }
    for (char c : s.toCharArray()) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private void finish() throws CatalogException {
    if (urls == null) {
      return;
    }
    String where = source + ":" + entryLine;
    String name = out != null ? out : lastSegment(urls.get(0).uri(), where);
    if (dir != null && !dir.isEmpty()) {
      name = (dir.endsWith("/") ? dir : dir + "/") + name;
    }
    Catalogs.checkName(name, where);
    if (!names.add(name)) {
      throw new CatalogException(where + ": output name " + name + " is used twice");
    }
    ready = new CatalogFile(name, -1, hashes, null, urls);
    urls = null;
  }

  private static String lastSegment(URI u, String where) throws CatalogException {
    String p = u.getRawPath();
    String seg = p.substring(p.lastIndexOf('/') + 1);
    try {
      seg = URLDecoder.decode(seg.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new CatalogException(where + ": cannot name the file after " + u + "; give out=NAME");
    }
    if (seg.isEmpty()) {
      throw new CatalogException(where + ": " + u + " names a directory; give out=NAME");
    }
    return seg;
  }
}
