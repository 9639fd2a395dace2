package org.braid.broker.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.braid.coalloc.DatasetNames;

/**
 * Reads replica catalogs: Metalink 4 (RFC 5854), JSON or YAML catalogs, and plain URL lists.
 *
 * <p>JSON/YAML catalog shape (YAML shown; JSON is the same tree):
 *
 * <pre>
 * files:
 *   run42.h5:                      # a logical name
 *     size: 2000000000             # optional
 *     hashes: {sha-256: 9f86...}   # optional
 *     replicas:
 *       - http://a.example.org/data/run42.h5
 *       - url: gsiftp://b.example.org/run42.h5
 *         priority: 1              # optional, 1..999999
 *         location: de             # optional
 *         provider: http://b.example.org:8790/v1/ads   # optional
 *   small.dat: [http://a.example.org/small.dat]      # a bare list of URLs
 * providers:                       # optional: provider per host or host:port
 *   a.example.org: http://a.example.org:8790/v1/ads
 * datasets:                        # optional: named groups of files
 *   run42: [run42.h5, "run42/**"]  # file names or glob patterns
 * </pre>
 *
 * <p>Also read here: aria2-style input lists ({@link #parseInputList}) and checksum lists in the
 * format of {@code sha256sum} and its relatives ({@link #parseChecksumList}).
 *
 * <p>All input is untrusted: sizes, counts, name shapes (no absolute paths, no {@code ..}), URL
 * schemes and hosts are checked, XML DTDs and entities are refused. Thread-safe (no state).
 */
public final class Catalogs {

  /** The URL schemes a replica may have. */
  public static final Set<String> SCHEMES = Set.of("http", "https", "gsiftp", "ftp", "file");

  private Catalogs() {}

  /**
   * Reads a catalog, choosing the format by file name: {@code .meta4} or {@code .metalink} is
   * Metalink, {@code .json}, {@code .yaml} or {@code .yml} a JSON/YAML catalog, anything else a URL
   * list (one logical file named after the list file).
   *
   * @throws CatalogException if the file is missing, too large or malformed (naming the file, line
   *     where known, and problem)
   */
  public static ReplicaCatalog read(Path file) throws CatalogException {
    return read(file, CatalogLimits.DEFAULT);
  }

  /**
   * Reads a catalog with the given limits; see {@link #read(Path)}.
   *
   * @throws CatalogException if the file is missing, too large or malformed
   */
  public static ReplicaCatalog read(Path file, CatalogLimits limits) throws CatalogException {
    String n =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (n.endsWith(".meta4") || n.endsWith(".metalink")) {
      return readMetalink(file, limits);
    }
    if (n.endsWith(".json") || n.endsWith(".yaml") || n.endsWith(".yml")) {
      return parseCatalog(bytes(file, limits), file.toString(), n.endsWith(".json"), limits);
    }
    return readUrlList(file, limits);
  }

  /**
   * Reads a Metalink 4 file.
   *
   * @throws CatalogException if the file is missing, larger than {@code limits.maxBytes()}, not
   *     Metalink 4, declares a DTD or entities, or holds a bad name, size, hash or URL
   */
  public static ReplicaCatalog readMetalink(Path file, CatalogLimits limits)
      throws CatalogException {
    return parseMetalink(bytes(file, limits), file.toString(), limits);
  }

  /**
   * Parses Metalink 4 from memory; {@code source} names it in messages.
   *
   * @throws CatalogException if the document is too large or malformed
   */
  public static ReplicaCatalog parseMetalink(byte[] xml, String source, CatalogLimits limits)
      throws CatalogException {
    Objects.requireNonNull(xml, "xml");
    if (xml.length > limits.maxBytes()) {
      throw new CatalogException(source + ": larger than " + limits.maxBytes() + " bytes");
    }
    return new MetalinkParser(source, limits).parse(xml);
  }

  /**
   * Parses a JSON ({@code json = true}) or YAML catalog from memory; {@code source} names it in
   * messages.
   *
   * @throws CatalogException if the document is too large or malformed
   */
  public static ReplicaCatalog parseCatalog(
      byte[] text, String source, boolean json, CatalogLimits limits) throws CatalogException {
    if (text.length > limits.maxBytes()) {
      throw new CatalogException(source + ": larger than " + limits.maxBytes() + " bytes");
    }
    JsonNode root;
    try {
      root = mapper(json).readTree(text);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
      throw new CatalogException(
          source
              + where
              + ": malformed "
              + (json ? "JSON" : "YAML")
              + ": "
              + e.getOriginalMessage().replace('\n', ' '),
          e);
    } catch (IOException | RuntimeException e) {
      throw new CatalogException(
          source + ": malformed " + (json ? "JSON" : "YAML") + ": " + e.getMessage(), e);
    }
    return CatalogTree.read(root, source, limits);
  }

  /**
   * Reads a plain URL list: one URL per line, blank lines and {@code #} comments ignored. The
   * catalog holds one file named after the list's file name.
   *
   * @throws CatalogException if the file is missing or too large, or a line is not a replica URL
   *     (naming the line)
   */
  public static ReplicaCatalog readUrlList(Path file, CatalogLimits limits)
      throws CatalogException {
    String text = new String(bytes(file, limits), StandardCharsets.UTF_8);
    return parseUrlList(text, file.toString(), String.valueOf(file.getFileName()), limits);
  }

  /**
   * Parses a plain URL list; see {@link #readUrlList(Path, CatalogLimits)}.
   *
   * @throws CatalogException if a line is not a replica URL or the list is empty
   */
  public static ReplicaCatalog parseUrlList(
      String text, String source, String name, CatalogLimits limits) throws CatalogException {
    List<Replica> replicas = new ArrayList<>();
    int lineNo = 0;
    for (String line : text.split("\r?\n", -1)) {
      lineNo++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      if (replicas.size() >= limits.maxUrlsPerFile()) {
        throw new CatalogException(
            source + ":" + lineNo + ": more than " + limits.maxUrlsPerFile() + " URLs");
      }
      replicas.add(Replica.of(parseUrl(t, source + ":" + lineNo)));
    }
    if (replicas.isEmpty()) {
      throw new CatalogException(source + ": no URL in the list");
    }
    return new ReplicaCatalog(
        Map.of(name, new CatalogFile(name, -1, Map.of(), null, replicas)), Map.of());
  }

  /**
   * Reads an input list in aria2's {@code -i} format: one file per entry, its replica URLs on one
   * line, then indented options {@code out=}, {@code dir=} and {@code checksum=TYPE=HEX}; see
   * docs/download.md.
   *
   * @throws CatalogException if the file is missing, too large or malformed (naming the line)
   */
  public static ReplicaCatalog readInputList(Path file, CatalogLimits limits)
      throws CatalogException {
    String text = new String(bytes(file, limits), StandardCharsets.UTF_8);
    return parseInputList(text, file.toString(), limits);
  }

  /**
   * Opens an input list as {@link #readInputList} reads it, to be read entry by entry: the file is
   * read now (its size checked), each entry is parsed and checked when {@link CatalogEntries#next}
   * reaches it, with the same errors, and an empty list fails at the first call.
   *
   * @throws CatalogException if the file is missing or too large
   */
  public static CatalogEntries openInputList(Path file, CatalogLimits limits)
      throws CatalogException {
    String text = new String(bytes(file, limits), StandardCharsets.UTF_8);
    String source = file.toString();
    InputList l = new InputList(source, limits);
    l.start(text);
    return new CatalogEntries() {
      private boolean any;

      @Override
      public CatalogFile next() throws CatalogException {
        CatalogFile f = l.next();
        if (f == null && !any) {
          throw new CatalogException(source + ": no URL in the list");
        }
        any = true;
        return f;
      }
    };
  }

  /**
   * Parses an aria2-style input list; see {@link #readInputList}.
   *
   * @throws CatalogException if it is malformed (naming the line)
   */
  public static ReplicaCatalog parseInputList(String text, String source, CatalogLimits limits)
      throws CatalogException {
    return new InputList(source, limits).parse(text);
  }

  /**
   * Reads a checksum list as {@code sha256sum} (or md5sum, sha1sum, sha512sum) writes it, or in the
   * BSD tagged format.
   *
   * @return digests by file name, then by algorithm ({@code md5}, {@code sha-1}, {@code sha-256},
   *     {@code sha-512}), in file order
   * @throws CatalogException if the file is missing, too large or has a bad line (naming it)
   */
  public static Map<String, Map<String, String>> readChecksumList(Path file, CatalogLimits limits)
      throws CatalogException {
    return parseChecksumList(
        new String(bytes(file, limits), StandardCharsets.UTF_8), file.toString(), limits);
  }

  /**
   * Parses a checksum list; see {@link #readChecksumList}.
   *
   * @throws CatalogException if a line is malformed (naming it)
   */
  public static Map<String, Map<String, String>> parseChecksumList(
      String text, String source, CatalogLimits limits) throws CatalogException {
    return ChecksumList.parse(text, source, limits);
  }

  /**
   * Checks and normalizes one replica URL: a known scheme ({@link #SCHEMES}), a host for network
   * schemes, no user info, a path, no control characters.
   *
   * @param where names the place in messages (file and line)
   * @throws CatalogException naming the place, the URL and the problem
   */
  public static URI parseUrl(String text, String where) throws CatalogException {
    Objects.requireNonNull(text, "text");
    String t = text.strip();
    if (hasControl(t)) {
      throw new CatalogException(
          where
              + ": invalid URL "
              + MetalinkParser.abbreviate(t)
              + ": too long or control characters");
    }
    return checkUrl(t, where);
  }

  /**
   * {@link #parseUrl} of a text the caller has found free of control characters (the input list
   * looks at each character once, as it splits a line).
   */
  static URI checkUrl(String text, String where) throws CatalogException {
    String t = text.strip();
    if (t.isEmpty()) {
      throw new CatalogException(where + ": empty URL");
    }
    if (t.length() > 4096) {
      throw new CatalogException(
          where
              + ": invalid URL "
              + MetalinkParser.abbreviate(t)
              + ": too long or control characters");
    }
    URI u;
    try {
      u = new URI(t).normalize();
    } catch (URISyntaxException e) {
      throw new CatalogException(
          where + ": invalid URL " + MetalinkParser.abbreviate(t) + ": " + e.getReason());
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!SCHEMES.contains(scheme)) {
      throw new CatalogException(
          where
              + ": invalid URL "
              + MetalinkParser.abbreviate(t)
              + ": scheme must be one of http, https, gsiftp, ftp, file");
    }
    if (!scheme.equals("file") && (u.getHost() == null || u.getHost().isEmpty())) {
      throw new CatalogException(
          where + ": invalid URL " + MetalinkParser.abbreviate(t) + ": no host");
    }
    if (u.getRawUserInfo() != null) {
      throw new CatalogException(
          where
              + ": invalid URL "
              + MetalinkParser.abbreviate(t)
              + ": credentials in URLs are refused");
    }
    if (u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/")) {
      throw new CatalogException(
          where + ": invalid URL " + MetalinkParser.abbreviate(t) + ": no file path");
    }
    return u;
  }

  /**
   * Checks a file name from a catalog: relative, no {@code ..} segment, no backslash, no control
   * characters, at most 1024 characters, and the rules of {@link DatasetNames} (the same for every
   * source of a dataset).
   *
   * @throws CatalogException naming the place and the name
   */
  public static String checkName(String name, String where) throws CatalogException {
    if (name.isEmpty() || name.length() > 1024) {
      throw new CatalogException(
          where + ": file name is empty or too long: " + MetalinkParser.abbreviate(name));
    }
    if (hasControlOrBackslash(name)) {
      throw new CatalogException(
          where
              + ": file name has control characters or a backslash: "
              + MetalinkParser.abbreviate(name));
    }
    if (name.startsWith("/")
        || (name.length() > 1 && name.charAt(1) == ':' && isAsciiLetter(name.charAt(0)))
        || name.startsWith("~")) {
      throw new CatalogException(
          where + ": file name must be relative: " + MetalinkParser.abbreviate(name));
    }
    if (DatasetNames.hasTraversalSegment(name)) {
      throw new CatalogException(
          where
              + ": file name must not contain '.', '..' or empty segments (path traversal): "
              + MetalinkParser.abbreviate(name));
    }
    // and the rules every dataset path obeys, whatever its source (DatasetNames)
    String problem = DatasetNames.problem(name);
    if (problem != null) {
      throw new CatalogException(
          where + ": file name: " + problem + ": " + MetalinkParser.abbreviate(name));
    }
    return name;
  }

  /**
   * Whether two replica URLs are equal ({@link URI#equals}), told first by their hosts and ports
   * where both have one: the replicas of a file usually differ there, and comparing two whole URIs
   * (path first) is a good part of reading a long list in a cold JVM.
   */
  static boolean sameUrl(URI a, URI b) {
    String ha = a.getHost();
    String hb = b.getHost();
    if (ha != null && hb != null && (a.getPort() != b.getPort() || !ha.equalsIgnoreCase(hb))) {
      return false;
    }
    return a.equals(b);
  }

  // loops over a char[], not streams or charAt: a list of 100,000 entries checks each URL and
  // name once, and in a cold JVM a call per character is most of that
  private static boolean hasControl(String t) {
    for (char c : t.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasControlOrBackslash(String t) {
    for (char c : t.toCharArray()) {
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\\') {
        return true;
      }
    }
    return false;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  /** The default port of a scheme (http 80, https 443, gsiftp 2811, ftp 21), or -1. */
  public static int defaultPort(String scheme) {
    switch (scheme == null ? "" : scheme.toLowerCase(Locale.ROOT)) {
      case "http":
        return 80;
      case "https":
        return 443;
      case "gsiftp":
        return 2811;
      case "ftp":
        return 21;
      default:
        return -1;
    }
  }

  static ObjectMapper mapper(boolean json) {
    StreamReadConstraints c =
        StreamReadConstraints.builder()
            .maxNestingDepth(32)
            .maxNumberLength(40)
            .maxStringLength(1 << 20)
            .build();
    if (json) {
      ObjectMapper m = new ObjectMapper();
      m.getFactory().setStreamReadConstraints(c);
      // a name given twice is an error, never silently the last one
      m.getFactory().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
      return m;
    }
    YAMLFactory f =
        YAMLFactory.builder()
            .streamReadConstraints(c)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    return new YAMLMapper(f);
  }

  static byte[] bytes(Path file, CatalogLimits limits) throws CatalogException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxBytes() + 1));
      if (b.length > limits.maxBytes()) {
        throw new CatalogException(file + ": larger than " + limits.maxBytes() + " bytes");
      }
      return b;
    } catch (NoSuchFileException e) {
      throw new CatalogException(file + ": no such file");
    } catch (CatalogException e) {
      throw e;
    } catch (IOException e) {
      throw new CatalogException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  static List<Replica> sorted(List<Replica> r) {
    List<Replica> l = new ArrayList<>(r);
    l.sort(Comparator.comparingInt(Replica::priority));
    return l;
  }

  static <T> Iterable<T> it(Iterator<T> i) {
    return () -> i;
  }

  static Map<String, String> map() {
    return new LinkedHashMap<>();
  }
}
