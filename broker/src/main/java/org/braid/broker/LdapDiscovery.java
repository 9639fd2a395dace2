package org.braid.broker;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.JVMDefaultTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.SocketFactory;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Glue2Extensions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery through an LDAP directory (a BDII): one subtree search under the directory's base DN
 * for every Braid extension entry ({@link Glue2Extensions#FILTER}) reads every site's storage ads
 * and latest probe values at once, with the UnboundID LDAP SDK. The answer is cached for the TTL (a
 * failure for the failure TTL) and split by host: the providers asked about are the replica hosts
 * ({@link ProviderRoutes#directory}), and a host's answer holds the ads of its endpoints ({@code
 * endpointHost}) and the host-level ads of a provider publishing that host name.
 *
 * <p>Bounded: the connect timeout, the timeout for the whole search (sent to the server as its time
 * limit too), a size limit in entries, and the SDK's largest message. A failure (unreachable, bad
 * base DN, no entries, too many) is one line naming the directory, given as every host's answer.
 * Thread-safe.
 */
final class LdapDiscovery implements Discovery {

  private static final Logger LOG = LoggerFactory.getLogger(LdapDiscovery.class);

  /** The largest LDAP message read: one entry is far smaller. */
  private static final int MAX_MESSAGE_BYTES = 1 << 20;

  private final LDAPURL url;
  private final String label;
  private final Duration connectTimeout;
  private final Duration timeout;
  private final Duration ttl;
  private final Duration failureTtl;
  private final int sizeLimit;
  private final InstantSource clock;
  private final boolean loads;
  private final String clientPeer;
  private final Map<URI, ProviderAnswer> primed = new ConcurrentHashMap<>();
  private Read cached;

  /** One read of the directory: ads by lower-case host, probe points by host name; or a failure. */
  record Read(
      Map<String, List<Map<String, Object>>> ads,
      Map<String, Map<String, Double>> probes,
      String error,
      Duration rtt,
      Instant fetched) {
    boolean ok() {
      return error == null;
    }
  }

  /**
   * A discovery of the directory at {@code ldapUrl}; nothing is read before the first fetch.
   *
   * @throws IllegalArgumentException if the URL is not {@code ldap[s]://HOST[:PORT]/BASE-DN}
   */
  LdapDiscovery(
      URI ldapUrl,
      Duration connectTimeout,
      Duration timeout,
      Duration ttl,
      Duration failureTtl,
      int sizeLimit,
      InstantSource clock,
      boolean loads,
      String clientPeer) {
    this.url = parse(ldapUrl);
    this.label = url.getScheme() + "://" + hostPort() + "/" + url.getBaseDN();
    this.connectTimeout = connectTimeout.compareTo(timeout) < 0 ? connectTimeout : timeout;
    this.timeout = timeout;
    this.ttl = ttl;
    this.failureTtl = failureTtl;
    this.sizeLimit = sizeLimit;
    this.clock = clock;
    this.loads = loads;
    this.clientPeer = clientPeer;
  }

  /**
   * Checks a directory URL: {@code ldap://} or {@code ldaps://}, a host, a base DN, nothing else.
   *
   * @throws IllegalArgumentException naming the URL and what is wrong
   */
  static LDAPURL parse(URI ldapUrl) {
    String text = ldapUrl.toString();
    LDAPURL u;
    try {
      u = new LDAPURL(text);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(
          "directory URL must be ldap://HOST[:PORT]/BASE-DN: "
              + text
              + " ("
              + e.getMessage()
              + ")");
    }
    if (!u.hostProvided()) {
      throw new IllegalArgumentException("directory URL names no host: " + text);
    }
    if (!u.baseDNProvided() || u.getBaseDN().isNullDN()) {
      throw new IllegalArgumentException(
          "directory URL names no base DN, e.g. ldap://HOST:2170/o=glue: " + text);
    }
    if (u.attributesProvided() || u.scopeProvided() || u.filterProvided()) {
      throw new IllegalArgumentException(
          "directory URL must be ldap://HOST[:PORT]/BASE-DN, without attributes, scope or"
              + " filter: "
              + text);
    }
    return u;
  }

  /** The URL a replica host's answer is filed under: the directory's, with the host as fragment. */
  static URI routeUrl(URI directory, String host) {
    try {
      return new URI(
          directory.getScheme(),
          directory.getAuthority(),
          directory.getPath(),
          null,
          host.toLowerCase(Locale.ROOT));
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("directory URL with host " + host + ": " + e.getMessage());
    }
  }

  private String hostPort() {
    String h = url.getHost();
    return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + url.getPort();
  }

  /**
   * Reads the directory now unless the cached read is fresh.
   *
   * @throws IOException with the one-line reason when the directory cannot be read
   */
  void refresh() throws IOException {
    Read r = read();
    if (!r.ok()) {
      throw new IOException(r.error());
    }
  }

  @Override
  public Map<URI, ProviderAnswer> fetch(Collection<URI> providers) {
    Map<URI, ProviderAnswer> out = new LinkedHashMap<>();
    Read r = null;
    for (URI p : new LinkedHashSet<>(providers)) {
      ProviderAnswer a = primed.get(p);
      if (a == null) {
        r = r == null ? read() : r;
        a = answer(p, r);
      }
      out.put(p, a);
    }
    return out;
  }

  private ProviderAnswer answer(URI provider, Read r) {
    if (!r.ok()) {
      return new ProviderAnswer(provider, List.of(), r.error(), r.rtt(), r.fetched());
    }
    String host = provider.getFragment() == null ? "" : provider.getFragment();
    List<Map<String, Object>> ads = r.ads().getOrDefault(host.toLowerCase(Locale.ROOT), List.of());
    if (ads.isEmpty()) {
      return new ProviderAnswer(
          provider,
          List.of(),
          "directory " + label + " has no storage ads for " + host,
          r.rtt(),
          r.fetched());
    }
    return new ProviderAnswer(provider, ads, null, r.rtt(), r.fetched(), loads(ads, r));
  }

  /** The probe values of the sites whose ads these are, as {@link HttpDiscovery} gives them. */
  private Map<String, Double> loads(List<Map<String, Object>> ads, Read r) {
    if (!loads) {
      return Map.of();
    }
    Map<String, Double> out = new HashMap<>();
    Set<String> sites = new LinkedHashSet<>();
    ads.forEach(a -> sites.add(String.valueOf(a.get(AdAttributes.HOSTNAME))));
    for (String site : sites) {
      Map<String, Double> series = r.probes().getOrDefault(site, Map.of());
      for (Map.Entry<String, Double> s : series.entrySet()) {
        if (s.getKey().matches("disk/[A-Za-z0-9_.-]+/util_percent")) {
          out.putIfAbsent("DiskLoad", s.getValue());
        }
        if (clientPeer != null && s.getKey().equals("network/" + clientPeer + "/bandwidth")) {
          out.putIfAbsent("NetworkBandwidth", s.getValue());
        }
      }
    }
    return out;
  }

  /** The cached read when fresh, else a new one (one search at a time). */
  synchronized Read read() {
    Instant now = clock.instant();
    if (cached != null && now.isBefore(cached.fetched().plus(cached.ok() ? ttl : failureTtl))) {
      return cached;
    }
    long t0 = System.nanoTime();
    Read r;
    try {
      r = search(t0);
    } catch (IOException e) {
      r = new Read(Map.of(), Map.of(), e.getMessage(), elapsed(t0), clock.instant());
      LOG.warn("{}", e.getMessage());
    }
    cached = r;
    return r;
  }

  private Read search(long t0) throws IOException {
    LDAPConnectionOptions o = new LDAPConnectionOptions();
    o.setConnectTimeoutMillis((int) Math.max(1, connectTimeout.toMillis()));
    o.setResponseTimeoutMillis(Math.max(1, timeout.toMillis()));
    o.setMaxMessageSize(MAX_MESSAGE_BYTES);
    o.setFollowReferrals(false);
    DirectoryEntries c = new DirectoryEntries();
    try (LDAPConnection conn = new LDAPConnection(socketFactory(o), o)) {
      conn.connect(url.getHost(), url.getPort());
      SearchRequest req =
          new SearchRequest(
              c,
              url.getBaseDN().toString(),
              SearchScope.SUB,
              Filter.create(Glue2Extensions.FILTER),
              Glue2Extensions.KEY_ATTRIBUTE,
              Glue2Extensions.VALUE_ATTRIBUTE);
      req.setSizeLimit(sizeLimit);
      req.setTimeLimitSeconds((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
      req.setResponseTimeoutMillis(Math.max(1, timeout.toMillis()));
      conn.search(req);
    } catch (LDAPSearchException e) {
      throw new IOException(reason(e.getResultCode(), e));
    } catch (LDAPException e) {
      throw new IOException(reason(e.getResultCode(), e));
    }
    if (c.entries == 0) {
      throw new IOException(
          "directory "
              + label
              + ": no Braid entries ("
              + Glue2Extensions.FILTER
              + ") under the base");
    }
    if (c.bad > 0) {
      LOG.warn(
          "directory {}: {} of {} Braid entries unreadable, first: {}",
          label,
          c.bad,
          c.entries,
          c.firstBad);
    }
    if (c.ads.isEmpty()) {
      throw new IOException(
          "directory " + label + ": no readable storage ads in " + c.entries + " Braid entries");
    }
    return new Read(c.ads, c.probes, null, elapsed(t0), clock.instant());
  }

  private SocketFactory socketFactory(LDAPConnectionOptions o) throws IOException {
    if (!url.getScheme().equalsIgnoreCase("ldaps")) {
      return SocketFactory.getDefault();
    }
    try {
      o.setSSLSocketVerifier(new HostNameSSLSocketVerifier(/* allowWildcards= */ true));
      return new SSLUtil(JVMDefaultTrustManager.getInstance()).createSSLSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IOException("directory " + label + ": TLS: " + e.getMessage(), e);
    }
  }

  /** A one-line reason naming the directory. */
  private String reason(ResultCode code, LDAPException e) {
    String base = url.getBaseDN().toString();
    String detail = e.getDiagnosticMessage() != null ? e.getDiagnosticMessage() : e.getMessage();
    String why;
    if (code == ResultCode.NO_SUCH_OBJECT) {
      why = "base DN " + base + " does not exist";
    } else if (code == ResultCode.INVALID_DN_SYNTAX) {
      why = "bad base DN " + base + " (" + detail + ")";
    } else if (code == ResultCode.SIZE_LIMIT_EXCEEDED) {
      why = "more than " + sizeLimit + " Braid entries under " + base + "; raise the size limit";
    } else if (code == ResultCode.TIME_LIMIT_EXCEEDED || code == ResultCode.TIMEOUT) {
      why = "no complete answer within " + timeout.toMillis() + " ms";
    } else if (code == ResultCode.CONNECT_ERROR || code == ResultCode.SERVER_DOWN) {
      why = "cannot connect to " + hostPort() + " (" + detail + ")";
    } else {
      why = code.getName() + " (" + code.intValue() + "): " + detail;
    }
    return ("directory " + label + ": " + why).replace('\n', ' ');
  }

  private static Duration elapsed(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  @Override
  public void prime(ProviderAnswer a) {
    primed.put(a.endpoint(), a);
  }

  @Override
  public synchronized void clear() {
    primed.clear();
    cached = null;
  }

  @Override
  public void close() {
    // a connection lives for one search only
  }
}
