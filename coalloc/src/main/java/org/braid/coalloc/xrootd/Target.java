package org.braid.coalloc.xrootd;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Where a request goes: a server, the file's path on it and the opaque information ("CGI") sent
 * with the path. The replica's URL gives the first target; a redirect gives the next.
 *
 * @param host the server's host name or address
 * @param port its port
 * @param path the absolute path of the file
 * @param cgi the opaque information without the '?', or empty
 * @param tls whether the connection must switch to TLS ({@code roots://})
 */
record Target(String host, int port, String path, String cgi, boolean tls) {
  /** XRootD's registered port. */
  static final int DEFAULT_PORT = 1094;

  /**
   * The target of a {@code root://} or {@code roots://} URL: {@code root://host[:port]//path[?cgi]}
   * (one or two slashes before the path: the path is absolute either way).
   *
   * @throws IllegalArgumentException for another scheme, no host or no path
   */
  static Target of(URI uri) {
    String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!s.equals("root") && !s.equals("roots")) {
      throw new IllegalArgumentException("not a root or roots URL: " + uri);
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("URL has no host: " + uri);
    }
    String raw = uri.getRawPath() == null ? "" : uri.getRawPath();
    String path = "/" + URLDecoder.decode(raw, StandardCharsets.UTF_8).replaceFirst("^/+", "");
    if (path.equals("/")) {
      throw new IllegalArgumentException("URL has no file path: " + uri);
    }
    String cgi = uri.getRawQuery() == null ? "" : uri.getRawQuery();
    int port = uri.getPort() > 0 ? uri.getPort() : DEFAULT_PORT;
    return new Target(uri.getHost(), port, path, cgi, s.equals("roots"));
  }

  /**
   * The target a kXR_redirect names: {@code host[?cgi]} with a port above 0, or a whole URL with a
   * port of 0 or below (then the port carries flags). The path stays; the redirect's CGI replaces
   * this target's. TLS stays on once on.
   *
   * @throws IllegalArgumentException if the redirect names no usable server
   */
  Target redirect(String where, int redirectPort) {
    String hostPart = where;
    String newCgi = "";
    int q = where.indexOf('?');
    if (q >= 0) {
      hostPart = where.substring(0, q);
      newCgi = where.substring(q + 1);
    }
    if (redirectPort > 0) {
      if (hostPart.isEmpty() || hostPart.contains("/")) {
        throw new IllegalArgumentException("redirect to a bad host '" + where + "'");
      }
      return new Target(hostPart, redirectPort, path, newCgi, tls);
    }
    URI u;
    try {
      u = new URI(where);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("redirect to a bad URL '" + where + "'", e);
    }
    String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!s.equals("root") && !s.equals("roots") && !s.equals("xroot") && !s.equals("xroots")) {
      throw new IllegalArgumentException("redirect to an unsupported URL '" + where + "'");
    }
    if (u.getHost() == null) {
      throw new IllegalArgumentException("redirect to a URL without a host '" + where + "'");
    }
    return new Target(
        u.getHost(),
        u.getPort() > 0 ? u.getPort() : DEFAULT_PORT,
        path,
        u.getRawQuery() == null ? "" : u.getRawQuery(),
        tls || s.endsWith("s"));
  }

  /** The path as sent in requests: with {@code ?cgi} when there is one. */
  String pathWithCgi() {
    return cgi.isEmpty() ? path : path + "?" + cgi;
  }

  /** {@code host:port} for messages. */
  String server() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
