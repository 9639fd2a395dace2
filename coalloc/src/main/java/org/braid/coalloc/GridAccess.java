package org.braid.coalloc;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.braid.coalloc.credentials.GridEnvironment;
import org.braid.coalloc.credentials.KeyMaterial;
import org.braid.coalloc.credentials.TlsContexts;
import org.braid.coalloc.credentials.TrustMaterial;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an HTTP(S) replica is reached with a grid user's credentials: the TLS set-up (client
 * certificate or proxy for the replica's own origin only, trusted CAs), the bearer token, and the
 * forward proxy, from {@link SourceOptions} first and then the environment ({@link
 * GridEnvironment}).
 */
final class GridAccess {
  private static final Logger LOG = LoggerFactory.getLogger(GridAccess.class);

  /** Hosts (host:port) told that the discovered token is not sent to them over plain http. */
  private static final Set<String> WARNED_HOSTS = ConcurrentHashMap.newKeySet();

  private GridAccess() {}

  static boolean https(URI target) {
    return "https".equalsIgnoreCase(target.getScheme());
  }

  /**
   * The TLS strategy for a replica at {@code target} (an http(s) URL). Built now for https, so that
   * bad material is reported before the download; for http only if a redirect leads to https.
   *
   * @throws IllegalArgumentException if the certificate, key or CA material is unusable
   */
  static TlsSocketStrategy tls(URI target, SourceOptions o, GridEnvironment env) {
    if (!https(target)) {
      return new LazyTls(() -> build(null, o, env));
    }
    return build(target, o, env);
  }

  /** With {@code target} null: trust only, no client certificate. */
  private static TlsSocketStrategy build(URI target, SourceOptions o, GridEnvironment env) {
    List<X509Certificate> anchors = null;
    boolean withSystem = false;
    if (o.caBundle() != null) {
      anchors = TrustMaterial.load(o.caBundle());
    } else {
      Path dir = env.caDirectory();
      if (dir != null) {
        anchors = TrustMaterial.load(dir);
        withSystem = true;
      }
    }
    TlsSocketStrategy plain =
        anchors == null
            ? DefaultClientTlsStrategy.createDefault()
            : strategy(TlsContexts.context(null, anchors, withSystem));
    KeyMaterial keys = target == null ? null : keys(o, env);
    if (keys == null) {
      return plain;
    }
    LOG.debug(
        "{}: presenting {} ({}) from {}",
        target,
        keys.chain().get(0).getSubjectX500Principal().getName(),
        KeyMaterial.isProxy(keys.chain().get(0)) ? "an RFC 3820 proxy" : "a certificate",
        keys.from());
    return new OriginTls(
        target.getHost(),
        target.getPort(),
        strategy(TlsContexts.context(keys, anchors, withSystem)),
        plain);
  }

  /**
   * A TLS context for protocols other than HTTP (XRootD's {@code roots://}): the same trust as
   * {@link #tls}, and the {@code --client-cert} if one is given (not the environment's proxy).
   *
   * @throws IllegalArgumentException if the material is unusable
   */
  static SSLContext sslContext(SourceOptions o) {
    GridEnvironment env = GridEnvironment.of(o.environment());
    KeyMaterial keys =
        o.clientCertificate() == null
            ? null
            : KeyMaterial.load(o.clientCertificate(), o.clientKey(), o.clientCertificatePassword());
    if (o.caBundle() != null) {
      return TlsContexts.context(keys, TrustMaterial.load(o.caBundle()), false);
    }
    Path dir = env.caDirectory();
    return TlsContexts.context(keys, dir == null ? null : TrustMaterial.load(dir), true);
  }

  private static TlsSocketStrategy strategy(SSLContext ctx) {
    return ClientTlsStrategyBuilder.create().setSslContext(ctx).buildClassic();
  }

  /** The client credential: the options', else X509_USER_PROXY, else the default proxy path. */
  private static KeyMaterial keys(SourceOptions o, GridEnvironment env) {
    if (o.clientCertificate() != null) {
      return KeyMaterial.load(o.clientCertificate(), o.clientKey(), o.clientCertificatePassword());
    }
    Path proxy = env.userProxy();
    if (proxy == null) {
      return null;
    }
    try {
      return KeyMaterial.load(proxy, null, null);
    } catch (IllegalArgumentException e) {
      if (env.userProxyIsDefault()) {
        // a stale proxy at the default path must not stop downloads that need none
        LOG.warn("not using the X.509 proxy: {}", e.getMessage());
        return null;
      }
      throw e;
    }
  }

  /**
   * The bearer token for a replica at {@code target} (an http(s) URL), or null for none. Tokens go
   * over TLS only, as XRootD's ztn protocol has it: the options' token is refused for an http
   * target unless {@link SourceOptions#allowInsecureToken()}; a token found by WLCG discovery is
   * never sent to one (a warning names the host, once per process).
   *
   * @throws IllegalArgumentException for the options' token and an http target without the opt-in,
   *     or discovery that names an unreadable token file (https targets)
   */
  static String token(URI target, SourceOptions o, GridEnvironment env) {
    o.checkTokenTransport(target); // the options' token or an Authorization header: TLS only
    if (o.bearerToken() != null) {
      return o.bearerToken();
    }
    if (!https(target)) {
      warnDiscoveredToken(target, env);
      return null;
    }
    GridEnvironment.Token t = env.bearerToken();
    if (t != null) {
      LOG.debug("{}: bearer {}", target, t);
    }
    return t == null ? null : t.value();
  }

  /**
   * Warns, once per host and port, that the discovered token is not sent to this http target.
   *
   * @return whether this call warned
   */
  static boolean warnDiscoveredToken(URI target, GridEnvironment env) {
    String host = target.getHost() + (target.getPort() < 0 ? "" : ":" + target.getPort());
    if (WARNED_HOSTS.contains(host)) {
      return false;
    }
    GridEnvironment.Token t;
    try {
      t = env.bearerToken();
    } catch (IllegalArgumentException e) {
      LOG.debug("{}: token discovery: {}", host, e.getMessage()); // not sent here anyway
      return false;
    }
    if (t == null || !WARNED_HOSTS.add(host)) {
      return false;
    }
    LOG.warn(
        "{}: not sending the bearer {} over plain http (tokens go over TLS only: https, davs)",
        host,
        t);
    return true;
  }

  /**
   * Routes through the forward proxy the environment names for each target host.
   *
   * @throws IllegalArgumentException if the proxy variable for {@code target} is unusable
   */
  static HttpRoutePlanner routes(URI target, GridEnvironment env) {
    proxy(env, target.getScheme(), target.getHost()); // reported now, not at the first request
    return new DefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE) {
      @Override
      protected HttpHost determineProxy(HttpHost host, HttpContext context) {
        return proxy(env, host.getSchemeName(), host.getHostName());
      }
    };
  }

  private static HttpHost proxy(GridEnvironment env, String scheme, String host) {
    URI p = env.proxyFor(scheme.toLowerCase(Locale.ROOT), host);
    return p == null ? null : new HttpHost("http", p.getHost(), p.getPort() < 0 ? 80 : p.getPort());
  }
}
