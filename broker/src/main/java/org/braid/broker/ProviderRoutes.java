package org.braid.broker;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.wire.ProviderApi;

/**
 * Which information provider the broker asks about a replica, and how it was found: the replica's
 * own (from the catalog), else one configured for its {@code host:port}, else one configured for
 * its host, else the conventional {@code http://HOST:PORT/v1/ads}. Immutable.
 */
final class ProviderRoutes {

  /**
   * A provider to ask about a replica.
   *
   * @param url the provider's ads URL
   * @param forEndpoint whether it was named for this replica or its {@code host:port} (the
   *     catalog's replica provider, a {@code host:port} mapping) rather than found by host: then
   *     ads that name no endpoint, from a provider that names none, are taken as this endpoint's
   *     own
   */
  record Route(URI url, boolean forEndpoint) {}

  private final Map<String, URI> providers;
  private final boolean conventional;
  private final int port;
  private final URI directory;

  /**
   * @param providers provider URLs by lower-case {@code host} or {@code host:port}
   * @param conventional whether hosts without a known provider are tried at the conventional URL
   * @param port the port of conventional URLs
   */
  ProviderRoutes(Map<String, URI> providers, boolean conventional, int port) {
    this(providers, conventional, port, null);
  }

  private ProviderRoutes(
      Map<String, URI> providers, boolean conventional, int port, URI directory) {
    this.providers = Map.copyOf(providers);
    this.conventional = conventional;
    this.port = port;
    this.directory = directory;
  }

  /**
   * Routes through a directory: every replica with a host is asked about by its host, in the
   * directory ({@link LdapDiscovery#routeUrl}); catalog and configured providers are not used.
   */
  static ProviderRoutes directory(URI directory) {
    return new ProviderRoutes(Map.of(), false, 0, directory);
  }

  /** The route for a replica, or null when there is none (a local file, or conventional off). */
  Route routeFor(Replica r) {
    if (directory != null) {
      String host = r.uri().getHost();
      return host == null ? null : new Route(LdapDiscovery.routeUrl(directory, host), false);
    }
    URI u = r.provider();
    boolean forEndpoint = true;
    if (u == null) {
      u = providers.get(Planner.serverKey(r));
    }
    if (u == null) {
      u = providers.get(r.host().toLowerCase(Locale.ROOT));
      forEndpoint = false;
    }
    if (u == null && conventional && r.uri().getHost() != null) {
      u = URI.create("http://" + hostForUri(r.uri().getHost()) + ":" + port + ProviderApi.ADS);
    }
    if (u == null) {
      return null;
    }
    if (u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/")) {
      u = u.resolve(ProviderApi.ADS);
    }
    return new Route(u, forEndpoint);
  }

  private static String hostForUri(String host) {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }
}
