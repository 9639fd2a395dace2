package org.braid.coalloc;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How range sources connect: timeouts, credentials and trust. Immutable; build with {@link
 * #builder()}. {@link #DEFAULT} has the defaults listed on each builder method.
 */
public final class SourceOptions {
  /** The defaults. */
  public static final SourceOptions DEFAULT = builder().build();

  private final Duration connectTimeout;
  private final Duration stallTimeout;
  private final int connectionsPerSource;
  private final boolean connectionsChosen;
  private final String bearerToken;
  private final boolean allowInsecureToken;
  private final Path clientCertificate;
  private final String clientCertificatePassword;
  private final Path clientKey;
  private final Path caBundle;
  private final Map<String, String> environment;
  private final String userAgent;
  private final Duration probeTimeout;
  private final int gridFtpStreams;
  private final int tcpBuffer;
  private final Map<String, String> headers;
  private final boolean pipelining;

  private SourceOptions(Builder b) {
    this.connectTimeout = b.connectTimeout;
    this.stallTimeout = b.stallTimeout;
    this.connectionsPerSource = b.connectionsPerSource;
    this.connectionsChosen = b.connectionsChosen;
    this.bearerToken = b.bearerToken;
    this.allowInsecureToken = b.allowInsecureToken;
    this.clientCertificate = b.clientCertificate;
    this.clientCertificatePassword = b.clientCertificatePassword;
    this.clientKey = b.clientKey;
    this.caBundle = b.caBundle;
    this.environment = b.environment;
    this.userAgent = b.userAgent;
    this.probeTimeout = b.probeTimeout;
    this.gridFtpStreams = b.gridFtpStreams;
    this.tcpBuffer = b.tcpBuffer;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
    this.pipelining = b.pipelining;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Time allowed to open a connection. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** Longest time without a byte before a transfer counts as stalled. */
  public Duration stallTimeout() {
    return stallTimeout;
  }

  /** Connections opened to each source. */
  public int connectionsPerSource() {
    return connectionsPerSource;
  }

  /**
   * Whether {@link Builder#connectionsPerSource} was called: if not, a download from distant HTTP
   * replicas may open more connections to each (docs/download.md, the default scheme).
   */
  public boolean connectionsChosen() {
    return connectionsChosen;
  }

  /**
   * The bearer token sent as {@code Authorization: Bearer ...} to https (and davs) replicas, or
   * null.
   */
  public String bearerToken() {
    return bearerToken;
  }

  /**
   * Whether {@link #bearerToken()} and an {@code Authorization} header may also be sent to plain
   * http replicas.
   */
  public boolean allowInsecureToken() {
    return allowInsecureToken;
  }

  /**
   * Checks, before any connection, that the bearer token and an {@code Authorization} header from
   * {@link #headers()} may go to this replica: not to a plain {@code http://} or {@code dav://} URL
   * unless {@link #allowInsecureToken()}.
   *
   * @throws IllegalArgumentException naming the URL if a credential would go over plain http
   */
  public void checkTokenTransport(URI replica) {
    if (allowInsecureToken) {
      return;
    }
    // what would be sent first (a plain loop: a dataset checks every replica of every file, and a
    // stream per URL cost a 1,000-file list 30-60 ms of a cold JVM's start)
    String what = bearerToken != null ? "the bearer token" : null;
    for (String k : headers.keySet()) {
      if (what == null && k.equalsIgnoreCase("Authorization")) {
        what = "the Authorization header";
      }
    }
    if (what == null) {
      return;
    }
    String scheme = replica.getScheme() == null ? "" : replica.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("http") || scheme.equals("dav")) {
      throw new IllegalArgumentException(
          "refusing to send "
              + what
              + " over plain http to "
              + replica
              + " (tokens go over TLS only: use https:// or davs://, or"
              + " --allow-insecure-token)");
    }
  }

  /**
   * The client certificate: a PEM file (a certificate, or an RFC 3820 proxy chain, with or without
   * its key) or a PKCS#12 file; null for the environment's proxy (X509_USER_PROXY, the default
   * proxy path) if any.
   */
  public Path clientCertificate() {
    return clientCertificate;
  }

  /** A PEM file with the key of {@link #clientCertificate()} if that file has none, or null. */
  public Path clientKey() {
    return clientKey;
  }

  /** The password of {@link #clientCertificate()}, or null for none. */
  public String clientCertificatePassword() {
    return clientCertificatePassword;
  }

  /**
   * A PEM file or a CA directory (OpenSSL hashed names) trusted instead of the system's and the
   * environment's, or null.
   */
  public Path caBundle() {
    return caBundle;
  }

  /**
   * The environment credentials and proxies are looked up in ({@code X509_USER_PROXY}, {@code
   * X509_CERT_DIR}, WLCG bearer-token discovery, {@code https_proxy}, ...).
   */
  public Map<String, String> environment() {
    return environment == null ? System.getenv() : environment;
  }

  /** The User-Agent header. */
  public String userAgent() {
    return userAgent;
  }

  /**
   * The most a probe may take, however the server answers (a trickled answer, a body that never
   * ends): the replica is then not used.
   */
  public Duration probeTimeout() {
    return probeTimeout;
  }

  /**
   * Parallel data connections per GridFTP range (MODE E), or 0 to choose them per server from the
   * measured history.
   */
  public int gridFtpStreams() {
    return gridFtpStreams;
  }

  /** The TCP buffer in bytes asked of GridFTP servers ({@code SBUF}), or 0 for the systems'. */
  public int tcpBuffer() {
    return tcpBuffer;
  }

  /**
   * Extra HTTP request headers by name, in the order given, sent to each replica's own host only
   * (not to hosts it redirects to).
   */
  public Map<String, String> headers() {
    return headers;
  }

  /** Builds {@link SourceOptions}. Not thread-safe. */
  /**
   * Whether plain-http and file sources are read with pipelined requests (see {@link
   * Builder#pipelining}).
   */
  public boolean pipelining() {
    return pipelining;
  }

  public static final class Builder {
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration stallTimeout = Duration.ofSeconds(30);
    private int connectionsPerSource = 1;
    private boolean connectionsChosen;
    private String bearerToken;
    private boolean allowInsecureToken;
    private Path clientCertificate;
    private String clientCertificatePassword;
    private Path clientKey;
    private Path caBundle;
    private Map<String, String> environment;
    private String userAgent = "braid/0.1";
    private Duration probeTimeout = Duration.ofSeconds(15);
    private int gridFtpStreams;
    private int tcpBuffer;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private boolean pipelining;

    private Builder() {}

    /**
     * Parallel TCP data connections of each GridFTP range in extended block mode (MODE E, {@code
     * OPTS RETR Parallelism=n}); 0 chooses the count per server from the rates measured with each
     * count, in the journal's history and in this download (see docs/download.md). Default: 0.
     *
     * @throws IllegalArgumentException if not in 0..16
     */
    public Builder gridFtpStreams(int n) {
      if (n < 0 || n > StreamTuner.MAX) {
        throw new IllegalArgumentException(
            "GridFTP streams must be in 0..16 (0: chosen from the history): " + n);
      }
      this.gridFtpStreams = n;
      return this;
    }

    /**
     * The TCP buffer size in bytes for GridFTP data connections: asked of the server with {@code
     * SBUF} and set on braid's own sockets; 0 leaves both to the operating systems' autotuning.
     * Default: 0.
     *
     * @throws IllegalArgumentException if not 0 and not in 4 KiB..256 MiB
     */
    public Builder tcpBuffer(int bytes) {
      if (bytes != 0 && (bytes < 4096 || bytes > (256 << 20))) {
        throw new IllegalArgumentException(
            "TCP buffer must be 0 (automatic) or 4096..268435456 bytes: " + bytes);
      }
      this.tcpBuffer = bytes;
      return this;
    }

    /**
     * Adds an HTTP request header, e.g. {@code X-Experiment: atlas}, sent to each replica's own
     * host (not to hosts it redirects to); the same name again replaces the value. Default: none.
     *
     * @throws IllegalArgumentException for a name that is not an HTTP token, a value with a line
     *     break or other control character, or a header braid sets itself (Range, Host,
     *     Content-Length, Connection, Transfer-Encoding)
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}")) {
        throw new IllegalArgumentException("not a valid header name: '" + name + "'");
      }
      if (value.length() > 8192 || !value.matches("[^\\x00-\\x08\\x0a-\\x1f\\x7f]*")) {
        throw new IllegalArgumentException(
            "header " + name + ": value has a line break or control character, or is too long");
      }
      String lower = name.toLowerCase(Locale.ROOT);
      if (List.of("range", "host", "content-length", "connection", "transfer-encoding")
          .contains(lower)) {
        throw new IllegalArgumentException("header " + name + " is set by braid itself");
      }
      headers.keySet().removeIf(k -> k.equalsIgnoreCase(name));
      headers.put(name, value.trim());
      return this;
    }

    /**
     * Time allowed to open a connection. Default: 10 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder connectTimeout(Duration d) {
      this.connectTimeout = positive(d, "connect timeout");
      return this;
    }

    /**
     * Longest time without a byte before a transfer is abandoned as stalled. Default: 30 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder stallTimeout(Duration d) {
      this.stallTimeout = positive(d, "stall timeout");
      return this;
    }

    /**
     * Connections per source (each fetches its own blocks). Default: 1, or 2 to distant HTTP
     * replicas with the default scheme (see {@link SourceOptions#connectionsChosen}).
     *
     * @throws IllegalArgumentException if not in 1..16
     */
    public Builder connectionsPerSource(int n) {
      if (n < 1 || n > 16) {
        throw new IllegalArgumentException("connections per source must be in 1..16: " + n);
      }
      this.connectionsPerSource = n;
      this.connectionsChosen = true;
      return this;
    }

    /**
     * Sends {@code Authorization: Bearer TOKEN} to https and davs replicas, each to its own host
     * and port only (not to hosts it redirects to). A source at a plain http URL with this token is
     * refused (IllegalArgumentException naming the URL) unless {@link #allowInsecureToken} is set.
     * Default: none (https replicas get the token WLCG discovery finds, http replicas none).
     */
    public Builder bearerToken(String token) {
      this.bearerToken = token;
      return this;
    }

    /**
     * Also sends the {@link #bearerToken} and an {@code Authorization} header from {@link #header}
     * over plain http, where anyone on the path can read and reuse them (a token found by WLCG
     * discovery never goes over http). Default: false.
     */
    public Builder allowInsecureToken(boolean allow) {
      this.allowInsecureToken = allow;
      return this;
    }

    /**
     * Presents this client certificate to HTTPS replicas (each to its own host only): a PEM file
     * with the certificate chain and usually the key (a grid proxy), or a PKCS#12 file with its
     * password (null for none). Default: the environment's X.509 proxy if there is one.
     */
    public Builder clientCertificate(Path file, String password) {
      this.clientCertificate = file;
      this.clientCertificatePassword = password;
      return this;
    }

    /** The PEM key of the {@link #clientCertificate} if that file holds none. Default: none. */
    public Builder clientKey(Path pem) {
      this.clientKey = pem;
      return this;
    }

    /**
     * Trusts the CA certificates in this PEM file or CA directory (OpenSSL hashed names) instead of
     * the system's and {@code X509_CERT_DIR}. Default: the system's, plus {@code X509_CERT_DIR} or
     * {@code /etc/grid-security/certificates}.
     */
    public Builder caBundle(Path fileOrDirectory) {
      this.caBundle = fileOrDirectory;
      return this;
    }

    /**
     * Looks credentials and proxies up in this environment instead of the process's (tests,
     * embedding). Default: {@link System#getenv()}.
     */
    public Builder environment(Map<String, String> env) {
      this.environment = Map.copyOf(env);
      return this;
    }

    /** The User-Agent header. Default: {@code braid/0.1}. */
    public Builder userAgent(String ua) {
      this.userAgent = Objects.requireNonNull(ua, "userAgent");
      return this;
    }

    /**
     * The most a probe may take from the request to the last byte of the answer, whatever the
     * server sends; a replica that has not answered by then is not used. Default: 15 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder probeTimeout(Duration d) {
      this.probeTimeout = positive(d, "probe timeout");
      return this;
    }

    /**
     * Reads plain-http sources reached without a proxy, and file sources, with requests sent ahead
     * of their answers on one kept connection per flow (HTTP/1.1 pipelining), sized by each flow's
     * rate and round-trip time, so that a block boundary costs no round trip and slow start is paid
     * once per connection. Redirects are not followed on such connections. Default: off.
     */
    public Builder pipelining(boolean on) {
      this.pipelining = on;
      return this;
    }

    /** Builds the options. */
    public SourceOptions build() {
      return new SourceOptions(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive: " + d);
      }
      return d;
    }
  }
}
