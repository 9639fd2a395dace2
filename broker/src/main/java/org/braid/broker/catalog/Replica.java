package org.braid.broker.catalog;

import java.net.URI;
import java.util.Objects;

/**
 * One physical copy of a file.
 *
 * @param uri where the copy is (http, https, gsiftp, ftp or file URL, checked by {@link
 *     Catalogs#parseUrl(String, String)})
 * @param priority Metalink priority, 1 (most preferred) to 999999; {@link #NO_PRIORITY} when the
 *     catalog gave none
 * @param location ISO 3166-1 alpha-2 country code from the catalog, or "" when unknown
 * @param provider the information provider that publishes this replica's performance (a URL of its
 *     {@code /v1/ads}), or null to let the broker find it
 */
public record Replica(URI uri, int priority, String location, URI provider) {

  /** The priority of a replica whose catalog gave none: the least preferred (RFC 5854). */
  public static final int NO_PRIORITY = 999_999;

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if uri or location is null
   * @throws IllegalArgumentException if the priority is outside 1..999999
   */
  public Replica {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(location, "location");
    if (priority < 1 || priority > NO_PRIORITY) {
      throw new IllegalArgumentException("replica priority must be 1..999999: " + priority);
    }
  }

  /** A replica with no priority, location or provider. */
  public static Replica of(URI uri) {
    return new Replica(uri, NO_PRIORITY, "", null);
  }

  /**
   * A replica from a URL string, checked as {@link Catalogs#parseUrl(String, String)} does.
   *
   * @throws IllegalArgumentException if the URL is not a usable replica URL
   */
  public static Replica of(String url) {
    try {
      return of(Catalogs.parseUrl(url, "replica"));
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The host of the URL ("localhost" for file URLs). */
  public String host() {
    return uri.getHost() == null ? "localhost" : uri.getHost();
  }

  /** The port of the URL, or the scheme's default port (-1 for file URLs). */
  public int port() {
    return uri.getPort() >= 0 ? uri.getPort() : Catalogs.defaultPort(uri.getScheme());
  }
}
