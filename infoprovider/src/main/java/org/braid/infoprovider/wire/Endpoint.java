package org.braid.infoprovider.wire;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One door of a storage server: the scheme, host and port clients connect to, and the path prefix
 * under which its files are named. A provider publishes statistics per endpoint (the logs of that
 * door's server); a broker gives a replica the statistics of the endpoint that serves it ({@link
 * #serves}): same scheme, host and port, and the replica's path under the endpoint's path.
 *
 * <p>Normal form: scheme and host in lower case, an IPv6 host without brackets, the scheme's
 * default port when none is written ({@link #defaultPort}), a path that starts and ends with {@code
 * /}.
 *
 * @param scheme e.g. {@code gsiftp}, {@code http}
 * @param host the host name or address, as replica URLs write it
 * @param port 1 to 65535, or -1 for a scheme without ports ({@code file})
 * @param path the path prefix, {@code /} for the whole server
 */
public record Endpoint(String scheme, String host, int port, String path) {

  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]{0,31}");
  private static final int MAX_LENGTH = 2048;

  /**
   * Normalises and checks the parts.
   *
   * @throws NullPointerException if a part is null
   * @throws IllegalArgumentException if the scheme is not a URL scheme, the host is empty, the port
   *     is outside 1..65535 (or -1), or the path does not start with {@code /}
   */
  public Endpoint {
    scheme = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
    host = Objects.requireNonNull(host, "host").toLowerCase(Locale.ROOT);
    Objects.requireNonNull(path, "path");
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (!SCHEME.matcher(scheme).matches()) {
      throw new IllegalArgumentException("endpoint scheme is not a URL scheme: " + scheme);
    }
    if (host.isEmpty() || host.length() > 255) {
      throw new IllegalArgumentException("endpoint host must be 1 to 255 characters: " + host);
    }
    if (port != -1 && (port < 1 || port > 65_535)) {
      throw new IllegalArgumentException("endpoint port must be 1..65535: " + port);
    }
    if (!path.startsWith("/") || path.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("endpoint path must start with /: " + path);
    }
    if (!path.endsWith("/")) {
      path = path + "/";
    }
  }

  /**
   * The port a URL of this scheme means when it names none: 80 http, 443 https, 2811 gsiftp, 21
   * ftp; -1 for others.
   */
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

  /**
   * Parses {@code SCHEME://HOST[:PORT][/PATH]}; a query or fragment is refused, and so are user
   * names (credentials do not belong in published ads).
   *
   * @throws IllegalArgumentException naming the text and the problem
   */
  public static Endpoint parse(String url) {
    Objects.requireNonNull(url, "url");
    URI u;
    try {
      u = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "endpoint must be SCHEME://HOST[:PORT][/PATH]: " + url + " (" + e.getReason() + ")");
    }
    if (u.getScheme() == null || u.getHost() == null || u.isOpaque()) {
      throw new IllegalArgumentException("endpoint must be SCHEME://HOST[:PORT][/PATH]: " + url);
    }
    if (u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "endpoint must have no user, query or fragment: SCHEME://HOST[:PORT][/PATH]: " + url);
    }
    String path = u.getPath() == null || u.getPath().isEmpty() ? "/" : u.getPath();
    return new Endpoint(u.getScheme(), u.getHost(), portOf(u), path);
  }

  /** The endpoint of a URL's server: its scheme, host and port, with the root path. */
  public static Endpoint serverOf(URI url) {
    Objects.requireNonNull(url, "url");
    String host = url.getHost() == null ? "localhost" : url.getHost();
    return new Endpoint(url.getScheme(), host, portOf(url), "/");
  }

  private static int portOf(URI u) {
    return u.getPort() >= 0 ? u.getPort() : defaultPort(u.getScheme());
  }

  /**
   * Whether this endpoint serves the file at {@code url}: same scheme, host and port, and the URL's
   * path is this endpoint's path or below it.
   */
  public boolean serves(URI url) {
    if (url.getScheme() == null || !scheme.equalsIgnoreCase(url.getScheme())) {
      return false;
    }
    String h = url.getHost() == null ? "localhost" : url.getHost();
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (!host.equalsIgnoreCase(h) || port != portOf(url)) {
      return false;
    }
    String p = url.getPath() == null || url.getPath().isEmpty() ? "/" : url.getPath();
    return p.startsWith(path) || (p + "/").equals(path);
  }

  /** This endpoint's server alone: {@code scheme://host:port}, the key of a client's flows. */
  public String server() {
    String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return scheme + "://" + h + (port < 0 ? "" : ":" + port);
  }

  /**
   * The endpoint as a URL: {@code scheme://host:port} followed by the path, which is left out when
   * it is {@code /} (so a server's endpoint reads as the server URL, e.g. {@code
   * gsiftp://se.example.org:2811}).
   */
  public String url() {
    return path.equals("/") ? server() : server() + path;
  }

  @Override
  public String toString() {
    return url();
  }
}
