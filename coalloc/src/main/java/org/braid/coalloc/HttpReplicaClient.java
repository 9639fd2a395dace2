package org.braid.coalloc;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.cookie.CookieSpecFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.util.Timeout;
import org.braid.coalloc.credentials.GridEnvironment;

/**
 * Builds the pooled HTTP client of an HTTP(S) or WebDAV replica's server: timeouts, TLS and proxy
 * from the grid environment, and the bearer token and user headers sent to that server only.
 */
final class HttpReplicaClient {
  private HttpReplicaClient() {}

  /**
   * A client for the server of {@code uri}, with a pool of at most {@code connections} keep-alive
   * connections; the bearer token goes to that server only.
   *
   * @throws IllegalArgumentException if the URL is not http(s), dav or davs, or the TLS material is
   *     unusable
   */
  static CloseableHttpClient create(URI uri, SourceOptions options, int connections) {
    URI target = httpTarget(uri);
    String token = GridAccess.token(target, options, GridEnvironment.of(options.environment()));
    return builder(target, options, connections, /* redirects= */ true)
        .addRequestInterceptorLast(
            (request, entity, context) -> {
              // the token goes to this replica's host only, not to wherever it redirects
              if (!sameOrigin(target, request.getAuthority(), request.getScheme())) {
                return;
              }
              if (token != null) {
                request.setHeader("Authorization", "Bearer " + token);
              }
              // the user's extra headers, like the token, to this replica's host only
              options.headers().forEach(request::setHeader);
            })
        .build();
  }

  /**
   * The client set-up every HTTP(S) request to a replica's server shares (ranges, listings): a pool
   * of at most {@code connections} connections with {@link HttpLimits}, the options' timeouts, TLS
   * and forward proxy from the grid environment ({@link GridAccess}), no retries, compression or
   * cookies. The caller adds what goes into the requests (token, headers).
   *
   * @throws IllegalArgumentException if the TLS material or a proxy variable is unusable
   */
  static HttpClientBuilder builder(
      URI target, SourceOptions options, int connections, boolean redirects) {
    GridEnvironment env = GridEnvironment.of(options.environment());
    PoolingHttpClientConnectionManager cm =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(connections)
            .setMaxConnTotal(connections)
            .setConnectionFactory(HttpLimits.connectionFactory())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.of(options.connectTimeout()))
                    .setSocketTimeout(Timeout.of(options.stallTimeout()))
                    .build())
            .setTlsSocketStrategy(GridAccess.tls(target, options, env))
            .build();
    return HttpClients.custom()
        .setConnectionManager(cm)
        .setRoutePlanner(GridAccess.routes(target, env))
        .setDefaultRequestConfig(
            RequestConfig.custom()
                .setResponseTimeout(Timeout.of(options.stallTimeout()))
                .setRedirectsEnabled(redirects)
                .build())
        .disableAutomaticRetries()
        .disableContentCompression()
        .disableCookieManagement()
        // an empty registry: the default one loads and parses the public suffix list (~30 ms)
        .setDefaultCookieSpecRegistry(RegistryBuilder.<CookieSpecFactory>create().build())
        .setUserAgent(options.userAgent());
  }

  /**
   * The http(s) URL for a replica URL: WebDAV's {@code davs://} is HTTPS and {@code dav://} HTTP.
   *
   * @throws IllegalArgumentException for any other scheme
   */
  static URI httpTarget(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    switch (scheme) {
      case "http":
      case "https":
        return uri;
      case "davs":
      case "dav":
        try {
          return new URI(
              scheme.equals("davs") ? "https" : "http",
              uri.getRawSchemeSpecificPart(),
              uri.getRawFragment());
        } catch (URISyntaxException e) {
          throw new IllegalArgumentException(
              "cannot read " + uri + " as http(s): " + e.getMessage());
        }
      default:
        throw new IllegalArgumentException("not an http(s) or dav(s) URL: " + uri);
    }
  }

  private static boolean sameOrigin(URI target, URIAuthority authority, String scheme) {
    if (authority == null || scheme == null || !scheme.equalsIgnoreCase(target.getScheme())) {
      return false;
    }
    int port =
        target.getPort() >= 0 ? target.getPort() : "https".equalsIgnoreCase(scheme) ? 443 : 80;
    int got =
        authority.getPort() >= 0
            ? authority.getPort()
            : "https".equalsIgnoreCase(scheme) ? 443 : 80;
    return authority.getHostName().equalsIgnoreCase(target.getHost()) && port == got;
  }
}
