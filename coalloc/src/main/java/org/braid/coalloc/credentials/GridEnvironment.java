package org.braid.coalloc.credentials;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where a grid user's credentials and proxies are, read from an environment (the process's, or a
 * map in tests) the way the grid tools read it:
 *
 * <ul>
 *   <li>bearer token: WLCG Bearer Token Discovery, in its order: {@code BEARER_TOKEN}, the file
 *       {@code BEARER_TOKEN_FILE}, {@code $XDG_RUNTIME_DIR/bt_u<uid>}, {@code /tmp/bt_u<uid>};
 *   <li>X.509 proxy: {@code X509_USER_PROXY}, else {@code /tmp/x509up_u<uid>} if it exists;
 *   <li>CA directory: {@code X509_CERT_DIR}, else {@code /etc/grid-security/certificates} if it
 *       exists;
 *   <li>HTTP proxy: {@code http_proxy} for http (lower case only, as curl: {@code HTTP_PROXY} can
 *       be set by a web server for CGI), {@code https_proxy} or {@code HTTPS_PROXY} for https,
 *       {@code all_proxy}/{@code ALL_PROXY} for both, except for hosts in {@code no_proxy}/{@code
 *       NO_PROXY}.
 * </ul>
 */
public final class GridEnvironment {
  /** Token files larger than this are not tokens (a JWT is a few kB). */
  private static final long MAX_TOKEN_BYTES = 1 << 20;

  static final Path GRID_CERTIFICATES = Path.of("/etc/grid-security/certificates");
  private static final Path TMP = Path.of("/tmp");

  private final Map<String, String> env;
  private final long uid;

  private GridEnvironment(Map<String, String> env, long uid) {
    this.env = Map.copyOf(env);
    this.uid = uid;
  }

  /** The process's environment. */
  public static GridEnvironment system() {
    return of(System.getenv());
  }

  /** The given environment (variables as in {@link System#getenv()}). */
  public static GridEnvironment of(Map<String, String> env) {
    return new GridEnvironment(env, currentUid());
  }

  /** A bearer token and where it was found (for messages). */
  public record Token(String value, String from) {
    @Override
    public String toString() {
      return "token from " + from; // never the token itself
    }
  }

  /**
   * The bearer token found by WLCG discovery, or null if there is none.
   *
   * @throws IllegalArgumentException if {@code BEARER_TOKEN_FILE} names a file that cannot be read
   */
  public Token bearerToken() {
    String t = get("BEARER_TOKEN");
    if (t != null && !t.isBlank()) {
      return new Token(t.strip(), "BEARER_TOKEN");
    }
    String file = get("BEARER_TOKEN_FILE");
    if (file != null && !file.isBlank()) {
      Path p = Path.of(file);
      if (!Files.isReadable(p)) {
        throw new IllegalArgumentException("BEARER_TOKEN_FILE=" + file + ": no such readable file");
      }
      return tokenFile(p, "BEARER_TOKEN_FILE=" + file);
    }
    String xdg = get("XDG_RUNTIME_DIR");
    if (xdg != null && !xdg.isBlank()) {
      Path p = Path.of(xdg, "bt_u" + uid);
      if (Files.isRegularFile(p)) {
        return tokenFile(p, p.toString());
      }
    }
    Path p = TMP.resolve("bt_u" + uid);
    return Files.isRegularFile(p) ? tokenFile(p, p.toString()) : null;
  }

  private static Token tokenFile(Path p, String from) {
    try {
      if (Files.size(p) > MAX_TOKEN_BYTES) {
        throw new IllegalArgumentException(from + ": larger than 1 MiB, not a token");
      }
      String t = Files.readString(p, StandardCharsets.UTF_8).strip();
      if (t.isEmpty()) {
        throw new IllegalArgumentException(from + ": the token file is empty");
      }
      if (t.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        throw new IllegalArgumentException(
            from + ": not a token (spaces or control characters inside)");
      }
      return new Token(t, from);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the bearer token " + from + ": " + Pem.describe(e));
    }
  }

  /**
   * The X.509 proxy file to present to HTTPS servers, or null if there is none.
   *
   * @throws IllegalArgumentException if {@code X509_USER_PROXY} names a missing file
   */
  public Path userProxy() {
    String v = get("X509_USER_PROXY");
    if (v != null && !v.isBlank()) {
      Path p = Path.of(v);
      if (!Files.isReadable(p)) {
        throw new IllegalArgumentException("X509_USER_PROXY=" + v + ": no such readable file");
      }
      return p;
    }
    Path p = TMP.resolve("x509up_u" + uid);
    return Files.isRegularFile(p) && Files.isReadable(p) ? p : null;
  }

  /** Whether {@link #userProxy()} is the default path, not one {@code X509_USER_PROXY} names. */
  public boolean userProxyIsDefault() {
    String v = get("X509_USER_PROXY");
    return v == null || v.isBlank();
  }

  /**
   * The directory of trusted CA certificates, or null for none.
   *
   * @throws IllegalArgumentException if {@code X509_CERT_DIR} is not a directory
   */
  public Path caDirectory() {
    String v = get("X509_CERT_DIR");
    if (v != null && !v.isBlank()) {
      Path p = Path.of(v);
      if (!Files.isDirectory(p)) {
        throw new IllegalArgumentException("X509_CERT_DIR=" + v + ": not a directory");
      }
      return p;
    }
    return Files.isDirectory(GRID_CERTIFICATES) ? GRID_CERTIFICATES : null;
  }

  /**
   * The HTTP proxy to reach {@code host} over {@code scheme} (http or https) through, or null to
   * connect directly.
   *
   * @throws IllegalArgumentException if the variable holds something other than an http proxy
   */
  public URI proxyFor(String scheme, String host) {
    String s = scheme.toLowerCase(Locale.ROOT);
    String name;
    String v;
    if (s.equals("http")) {
      name = "http_proxy";
      v = get(name);
    } else if (s.equals("https")) {
      name = get("https_proxy") != null ? "https_proxy" : "HTTPS_PROXY";
      v = get(name);
    } else {
      return null;
    }
    if (v == null || v.isBlank()) {
      name = get("all_proxy") != null ? "all_proxy" : "ALL_PROXY";
      v = get(name);
    }
    if (v == null || v.isBlank()) {
      return null;
    }
    String np = get("no_proxy") != null ? get("no_proxy") : get("NO_PROXY");
    if (NoProxy.matches(np, host)) {
      return null;
    }
    return proxyUri(name, v.strip());
  }

  private static URI proxyUri(String name, String v) {
    try {
      URI u = new URI(v.contains("://") ? v : "http://" + v);
      if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
        throw new IllegalArgumentException(
            name + "=" + v + ": only http:// proxies are supported (host and port)");
      }
      if (u.getUserInfo() != null) {
        throw new IllegalArgumentException(
            name + ": proxy authentication (user:password@) is not supported");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(name + "=" + v + ": not a proxy URL");
    }
  }

  private String get(String name) {
    return env.get(name);
  }

  /** This process's user id (the {@code <uid>} of {@code /tmp/x509up_u<uid>}). */
  public static long currentUid() {
    try {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return ((Number) uid).longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1; // no such files then: nothing is found at the default paths
    }
  }
}
