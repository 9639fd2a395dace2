package org.braid.broker;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.braid.infoprovider.wire.ProviderApi;

/**
 * The discovery options of a {@link Broker.Builder}: where each replica's provider is, how long it
 * may take, or the directory to read instead. Not thread-safe.
 *
 * @param <B> the builder
 */
abstract class DiscoveryOptions<B extends DiscoveryOptions<B>> {
  Duration timeout = Duration.ofSeconds(2);
  Duration connectTimeout = Duration.ofSeconds(1);
  Duration ttl = Duration.ofMinutes(1);
  Duration failureTtl = Duration.ofSeconds(10);
  long maxResponseBytes = 4L << 20;
  int providerPort = ProviderApi.DEFAULT_PORT;
  boolean conventional = true;
  final Map<String, URI> providers = new HashMap<>();
  String clientPeer;
  boolean loads = true;
  URI directory;
  int directorySizeLimit = 50_000;

  DiscoveryOptions() {}

  /** This builder. */
  abstract B self();

  /**
   * Discovers through an LDAP directory (a BDII) instead of asking each provider over HTTP: one
   * subtree search under the URL's base DN reads every site's storage ads, published by {@code
   * braid provider ldif} (GLUE 2.0 layout), cached for the {@link #cacheTtl TTL}. Each replica gets
   * the ads of its own endpoint as over HTTP; configured and catalog providers are not used. The
   * {@link #timeout} bounds the search, the {@link #connectTimeout} the connection. Default: none
   * (HTTP).
   *
   * @param ldapUrl {@code ldap://HOST[:PORT]/BASE-DN} or {@code ldaps://...}, e.g. {@code
   *     ldap://bdii.example.org:2170/o=glue}
   * @throws IllegalArgumentException if the URL is not such a URL
   */
  public B directory(URI ldapUrl) {
    LdapDiscovery.parse(Objects.requireNonNull(ldapUrl, "ldapUrl"));
    this.directory = ldapUrl;
    return self();
  }

  /**
   * The most directory entries one search may return; a directory with more is an error rather than
   * a partial view. Default: 50,000.
   *
   * @throws IllegalArgumentException if below 1
   */
  public B directorySizeLimit(int entries) {
    BrokerParts.requireArgument(
        entries >= 1, "directory size limit must be at least 1: " + entries);
    this.directorySizeLimit = entries;
    return self();
  }

  /**
   * Whether to fetch each provider's latest disk utilization ({@code DiskLoad}, percent) and, with
   * {@link #clientPeer}, its network probe towards this client ({@code NetworkBandwidth}) from
   * {@code /v1/series}, within the same timeout. Default: true.
   */
  public B loads(boolean on) {
    this.loads = on;
    return self();
  }

  /**
   * The most a discovery round may take: providers that have not answered by then are skipped with
   * a reason. Also the read timeout. Default: 2 s.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B timeout(Duration timeout) {
    this.timeout = BrokerParts.positive("timeout", timeout);
    return self();
  }

  /**
   * The connect timeout (capped by {@link #timeout}). Default: 1 s.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B connectTimeout(Duration t) {
    this.connectTimeout = BrokerParts.positive("connect timeout", t);
    return self();
  }

  /**
   * How long a provider's answer is reused. Default: 1 min.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B cacheTtl(Duration ttl) {
    this.ttl = BrokerParts.positive("cache TTL", ttl);
    return self();
  }

  /**
   * How long a failed query is remembered before the provider is asked again. Default: 10 s.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B failureTtl(Duration ttl) {
    this.failureTtl = BrokerParts.positive("failure TTL", ttl);
    return self();
  }

  /**
   * The largest provider answer read; larger ones are skipped with a reason. Default: 4 MiB.
   *
   * @throws IllegalArgumentException if not positive
   */
  public B maxResponseBytes(long n) {
    BrokerParts.requireArgument(n > 0, "max response bytes must be positive: " + n);
    this.maxResponseBytes = n;
    return self();
  }

  /**
   * The port of conventional provider URLs. Default: 8790, the provider's default.
   *
   * @throws IllegalArgumentException if outside 1..65535
   */
  public B providerPort(int port) {
    BrokerParts.requireArgument(
        port >= 1 && port <= 65535, "provider port must be 1..65535: " + port);
    this.providerPort = port;
    return self();
  }

  /** Whether hosts without a known provider are tried at the conventional URL. Default: true. */
  public B conventionalProviders(boolean on) {
    this.conventional = on;
    return self();
  }

  /**
   * The provider of a host ({@code host} or {@code host:port} of the replica URL; a URL without a
   * path gets {@code /v1/ads}). Mapped for a {@code host:port}, a provider whose ads name no
   * endpoint speaks for that endpoint; mapped for a host, such ads are host-level data (see {@link
   * RankedReplica#forecastSource()}). Ads that name endpoints are matched to each replica's own
   * either way.
   *
   * @throws IllegalArgumentException if the URL is not http or https with a host
   */
  public B provider(String host, URI url) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(url, "url");
    BrokerParts.requireArgument(
        ("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))
            && url.getHost() != null,
        "provider URL of " + host + " must be http(s)://HOST[:PORT]: " + url);
    providers.put(host.toLowerCase(Locale.ROOT), url);
    return self();
  }

  /** Several providers, e.g. a catalog's {@code providers}. */
  public B providers(Map<String, URI> map) {
    map.forEach(this::provider);
    return self();
  }

  /**
   * This client's address as providers see it: their ad for this peer is used when published.
   * Default: none (the ad with the most read transfers).
   */
  public B clientPeer(String peer) {
    this.clientPeer = peer;
    return self();
  }
}
