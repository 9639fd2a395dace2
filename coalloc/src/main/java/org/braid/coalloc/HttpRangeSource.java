package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.cookie.CookieSpecFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.util.Timeout;
import org.braid.coalloc.credentials.GridEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP or HTTPS replica read with range requests over pooled keep-alive connections (Apache
 * HttpClient 5, classic API). Every response is checked: status 206, {@code Content-Range} and
 * {@code Content-Length} equal to the request, {@code ETag} and {@code Last-Modified} equal to the
 * probe's, and a body of exactly the requested length. Thread-safe.
 */
public final class HttpRangeSource implements RangeSource {
  private static final Logger LOG = LoggerFactory.getLogger(HttpRangeSource.class);
  private static final Pattern CONTENT_RANGE =
      Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern UNSATISFIED_RANGE =
      Pattern.compile("bytes\\s+\\*/(\\d+)", Pattern.CASE_INSENSITIVE);

  /** Remainders at most this long are read to the end so the connection can be reused. */
  private static final long DRAIN_LIMIT = 64 * 1024;

  private final URI uri;

  /** The URL requested: {@link #uri} with {@code davs} as {@code https}, {@code dav} as http. */
  private final URI target;

  private final SourceOptions options;
  private final CloseableHttpClient client;
  private final boolean ownsClient;
  private volatile Validators probed;

  /**
   * Creates a source with its own connection pool of {@link SourceOptions#connectionsPerSource()}
   * connections (plus one for probes).
   *
   * @throws IllegalArgumentException if the URL is not http(s) or the TLS material is unusable
   */
  public HttpRangeSource(URI uri, SourceOptions options) {
    this(uri, options, client(uri, options, options.connectionsPerSource() + 1), true);
  }

  /**
   * Creates a source over a client shared with the other sources of its server ({@link #client});
   * closing the source leaves the client and its connections open.
   *
   * @throws IllegalArgumentException if the URL is not http(s), dav or davs
   */
  HttpRangeSource(URI uri, SourceOptions options, CloseableHttpClient shared) {
    this(uri, options, shared, false);
  }

  private HttpRangeSource(
      URI uri, SourceOptions options, CloseableHttpClient client, boolean ownsClient) {
    this.uri = uri;
    this.target = httpTarget(uri);
    this.options = options;
    this.client = client;
    this.ownsClient = ownsClient;
  }

  /**
   * A client for the server of {@code uri}, with a pool of at most {@code connections} keep-alive
   * connections; the bearer token goes to that server only.
   *
   * @throws IllegalArgumentException if the URL is not http(s), dav or davs, or the TLS material is
   *     unusable
   */
  static CloseableHttpClient client(URI uri, SourceOptions options, int connections) {
    URI target = httpTarget(uri);
    PoolingHttpClientConnectionManagerBuilder cmb =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(connections)
            .setMaxConnTotal(connections)
            .setConnectionFactory(HttpLimits.connectionFactory())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.of(options.connectTimeout()))
                    .setSocketTimeout(Timeout.of(options.stallTimeout()))
                    .build());
    GridEnvironment env = GridEnvironment.of(options.environment());
    cmb.setTlsSocketStrategy(GridAccess.tls(target, options, env));
    String token = GridAccess.token(target, options, env);
    PoolingHttpClientConnectionManager cm = cmb.build();
    return HttpClients.custom()
        .setConnectionManager(cm)
        .setRoutePlanner(GridAccess.routes(target, env))
        .setDefaultRequestConfig(
            RequestConfig.custom()
                .setResponseTimeout(Timeout.of(options.stallTimeout()))
                .setRedirectsEnabled(true)
                .build())
        .disableAutomaticRetries()
        .disableContentCompression()
        .disableCookieManagement()
        // an empty registry: the default one loads and parses the public suffix list (~30 ms)
        .setDefaultCookieSpecRegistry(RegistryBuilder.<CookieSpecFactory>create().build())
        .setUserAgent(options.userAgent())
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

  private static boolean sameOrigin(
      URI target, org.apache.hc.core5.net.URIAuthority authority, String scheme) {
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

  @Override
  public URI uri() {
    return uri;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Bounded whatever the server sends: the whole exchange is abandoned after {@link
   * SourceOptions#probeTimeout()}, and the answer's body is read only when it is the one byte asked
   * for; any other body (a server that ignores ranges, a huge or missing Content-Length) is not
   * read: the connection is closed instead.
   */
  @Override
  public Validators probe() throws IOException {
    HttpGet get = request(0, 1);
    get.setHeader("Want-Repr-Digest", HttpDigests.WANT_REPR_DIGEST);
    get.setHeader("Want-Digest", HttpDigests.WANT_DIGEST);
    Duration limit = options.probeTimeout();
    try (Deadlines.Armed deadline = Deadlines.after(limit, get::cancel)) {
      try {
        return probe(get);
      } catch (IOException e) {
        if (deadline.expired()) {
          throw new SourceException.StalledException(
              uri, "no complete answer to the probe within " + seconds(limit), e);
        }
        throw e;
      }
    }
  }

  private Validators probe(HttpGet get) throws IOException {
    ClassicHttpResponse r = execute(get);
    boolean reusable = false;
    try {
      int status = r.getCode();
      Validators v;
      if (status == 206) {
        Matcher m = contentRange(r);
        if (m == null
            || m.group(3).equals("*")
            || !m.group(1).equals("0")
            || !m.group(2).equals("0")) {
          throw new SourceException.BadRangeException(
              uri, "probe answer has no usable Content-Range: " + header(r, "Content-Range"));
        }
        v = new Validators(Long.parseLong(m.group(3)), etag(r), header(r, "Last-Modified"));
        reusable = readProbeBody(r, 1);
      } else if (status == 416) {
        String cr = header(r, "Content-Range");
        Matcher m = cr == null ? null : UNSATISFIED_RANGE.matcher(cr.trim());
        if (m == null || !m.matches() || Long.parseLong(m.group(1)) != 0) {
          throw statusError(r);
        }
        v = new Validators(0, etag(r), header(r, "Last-Modified"));
      } else if (status == 200) {
        v = wholeFile(r);
      } else {
        throw statusError(r);
      }
      v = v.withChecksums(HttpDigests.parse(header(r, "Repr-Digest"), header(r, "Digest")));
      probed = v;
      return v;
    } finally {
      if (!reusable) {
        // not read to its end: drop the connection rather than drain whatever the server sends
        get.cancel();
      }
      try {
        r.close();
      } catch (IOException e) {
        // the connection is dropped anyway
      }
    }
  }

  /** The validators of a server that answered a range request with the whole file. */
  private Validators wholeFile(ClassicHttpResponse r) throws SourceException {
    long size = contentLength(r);
    if (size < 0) {
      throw new SourceException.RangeIgnoredException(uri, 0, 1);
    }
    return new Validators(size, etag(r), header(r, "Last-Modified"), false, List.of());
  }

  private long contentLength(ClassicHttpResponse r) {
    String cl = header(r, "Content-Length");
    try {
      return cl == null ? -1 : Long.parseLong(cl.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Reads a probe answer's body if it declares exactly {@code expected} bytes; true if it was read
   * whole (the connection can be reused), false if it is left unread.
   *
   * @throws SourceException if the answer declares another length
   */
  private boolean readProbeBody(ClassicHttpResponse r, int expected) throws IOException {
    String cl = header(r, "Content-Length");
    if (cl != null && !cl.trim().equals(Integer.toString(expected))) {
      throw new SourceException.BadRangeException(
          uri,
          "probe answer declares Content-Length "
              + OneLine.abbreviate(cl.trim())
              + " for a "
              + expected
              + "-byte range");
    }
    HttpEntity e = r.getEntity();
    if (cl == null || e == null) {
      return false;
    }
    try (InputStream in = e.getContent()) {
      if (in.readNBytes(expected).length != expected) {
        throw new SourceException.BodyLengthException(uri, "probe answer ended early", null);
      }
    }
    return true;
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
  }

  @Override
  public ReadableByteChannel open(long offset, long length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("range must not be negative: " + offset + "+" + length);
    }
    Validators p = probed;
    if (length == 0) {
      return new Body(null, null, null, 0, 0);
    }
    boolean whole = p != null && !p.ranges();
    HttpGet get = whole ? new HttpGet(target) : request(offset, length);
    ClassicHttpResponse r = executeHead(get);
    try {
      if (whole) {
        checkWhole(r, offset, length, p);
      } else {
        check(r, offset, length, p);
      }
      HttpEntity e = r.getEntity();
      if (e == null) {
        throw new SourceException.BodyLengthException(uri, "response has no body", null);
      }
      InputStream in = e.getContent();
      if (whole) {
        skip(in, offset);
      }
      return new Body(get, r, in, length, whole ? p.size() - offset - length : 0);
    } catch (IOException | RuntimeException ex) {
      get.cancel();
      try {
        r.close();
      } catch (IOException closing) {
        ex.addSuppressed(closing);
      }
      throw ex;
    }
  }

  private void check(ClassicHttpResponse r, long offset, long length, Validators p)
      throws SourceException {
    int status = r.getCode();
    long size = p == null ? -1 : p.size();
    if (status == 200) {
      if (offset != 0 || length != size) {
        throw new SourceException.RangeIgnoredException(uri, offset, length);
      }
    } else if (status == 206) {
      Matcher m = contentRange(r);
      if (m == null) {
        throw new SourceException.BadRangeException(
            uri,
            "Content-Range '"
                + header(r, "Content-Range")
                + "' does not answer bytes="
                + offset
                + "-"
                + (offset + length - 1));
      }
      long first = Long.parseLong(m.group(1));
      long last = Long.parseLong(m.group(2));
      boolean sizeOk = m.group(3).equals("*") || size < 0 || Long.parseLong(m.group(3)) == size;
      if (first != offset || last != offset + length - 1 || !sizeOk) {
        throw new SourceException.BadRangeException(
            uri,
            "Content-Range '"
                + header(r, "Content-Range")
                + "' does not answer bytes="
                + offset
                + "-"
                + (offset + length - 1)
                + (size < 0 ? "" : "/" + size));
      }
    } else {
      throw statusError(r);
    }
    String cl = header(r, "Content-Length");
    if (cl != null && !cl.trim().equals(Long.toString(length))) {
      throw new SourceException.BadRangeException(
          uri, "Content-Length " + cl.trim() + " differs from the requested " + length + " bytes");
    }
    if (p != null) {
      Validators now = new Validators(p.size(), etag(r), header(r, "Last-Modified"));
      if (!p.sameVersion(now)) {
        throw new SourceException.ReplicaChangedException(
            uri,
            "file changed on the server (ETag "
                + p.etag()
                + " -> "
                + now.etag()
                + ", Last-Modified "
                + p.lastModified()
                + " -> "
                + now.lastModified()
                + ")");
      }
    }
  }

  /**
   * Checks the whole-file answer of a server that ignores Range: status 200, the probed size and
   * the same version; the range must lie inside the file.
   */
  private void checkWhole(ClassicHttpResponse r, long offset, long length, Validators p)
      throws SourceException {
    if (r.getCode() != 200) {
      throw new SourceException.HttpStatusException(uri, r.getCode(), r.getReasonPhrase());
    }
    if (offset + length > p.size()) {
      throw new IllegalArgumentException(
          "range " + offset + "+" + length + " ends after the file's " + p.size() + " bytes");
    }
    long cl = contentLength(r);
    Validators now = new Validators(cl < 0 ? p.size() : cl, etag(r), header(r, "Last-Modified"));
    if (!p.sameVersion(now)) {
      throw new SourceException.ReplicaChangedException(
          uri,
          "file changed on the server (size "
              + p.size()
              + " -> "
              + now.size()
              + ", ETag "
              + p.etag()
              + " -> "
              + now.etag()
              + ")");
    }
  }

  /** Reads and discards the bytes before the range (the server sends the file from byte 0). */
  private void skip(InputStream in, long offset) throws SourceException {
    if (offset == 0) {
      return;
    }
    LOG.debug("{} ignores Range: reading and discarding {} bytes", uri, offset);
    try {
      in.skipNBytes(offset);
    } catch (SocketTimeoutException e) {
      throw new SourceException.StalledException(
          uri, "stalled while skipping to byte " + offset + " of the whole file", e);
    } catch (IOException e) {
      throw new SourceException.ConnectionException(
          uri, "connection failed while skipping to byte " + offset + ": " + describe(e), e);
    }
  }

  private HttpGet request(long offset, long length) {
    HttpGet get = new HttpGet(target);
    get.setHeader("Range", "bytes=" + offset + "-" + (offset + length - 1));
    return get;
  }

  /**
   * Sends the request and waits for the status line and headers, at most the connect timeout plus
   * the stall timeout however slowly the server trickles them.
   */
  private ClassicHttpResponse executeHead(HttpGet get) throws SourceException {
    Duration limit = options.connectTimeout().plus(options.stallTimeout());
    ClassicHttpResponse r;
    try (Deadlines.Armed deadline = Deadlines.after(limit, get::cancel)) {
      try {
        r = execute(get);
      } catch (SourceException e) {
        if (deadline.expired()) {
          throw new SourceException.StalledException(
              uri, "no response headers within " + seconds(limit), e);
        }
        throw e;
      }
      if (deadline.expired()) {
        // the headers came just as the limit passed: the connection is being dropped
        try {
          r.close();
        } catch (IOException e) {
          // dropped anyway
        }
        throw new SourceException.StalledException(
            uri, "no response headers within " + seconds(limit), null);
      }
    }
    return r;
  }

  private ClassicHttpResponse execute(HttpGet get) throws SourceException {
    try {
      return client.executeOpen(null, get, null);
    } catch (SocketTimeoutException e) {
      throw new SourceException.StalledException(
          uri, "no answer within " + options.stallTimeout().toSeconds() + " s", e);
    } catch (IOException e) {
      throw new SourceException.ConnectionException(uri, "request failed: " + describe(e), e);
    }
  }

  static String describe(IOException e) {
    return PlainErrors.of(e);
  }

  private static Matcher contentRange(ClassicHttpResponse r) {
    String cr = header(r, "Content-Range");
    if (cr == null) {
      return null;
    }
    Matcher m = CONTENT_RANGE.matcher(cr.trim());
    return m.matches() ? m : null;
  }

  private static String etag(ClassicHttpResponse r) {
    return header(r, "ETag");
  }

  /** The error for an answer with an unexpected status, with its {@code Retry-After} if any. */
  private SourceException.HttpStatusException statusError(ClassicHttpResponse r) {
    return new SourceException.HttpStatusException(
        uri,
        r.getCode(),
        r.getReasonPhrase(),
        RetryAfter.parse(header(r, "Retry-After"), Instant.now()));
  }

  private static String header(ClassicHttpResponse r, String name) {
    Header h = r.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  /**
   * Whether requests can be pipelined to this replica ({@link #pipe}): plain http reached directly;
   * https (TLS, grid credentials) and replicas behind a forward proxy keep the pooled client.
   */
  boolean pipelinable() {
    return "http".equalsIgnoreCase(target.getScheme())
        && GridEnvironment.of(options.environment()).proxyFor("http", target.getHost()) == null;
  }

  /** A pipelined connection to this replica; its answers are checked as {@link #open}'s. */
  Pipe pipe() throws SourceException {
    return HttpPipe.open(target, options, (r, offset, length) -> check(r, offset, length, probed));
  }

  @Override
  public void close() throws IOException {
    if (ownsClient) {
      client.close();
    }
  }

  /** The body of one range response: exactly {@code length} bytes, or an exception. */
  private final class Body extends ExactBody {
    private final HttpGet get;
    private final ClassicHttpResponse response;
    private final Thread reader = Thread.currentThread();
    private volatile boolean open = true;

    /** Bytes the server sends after the range (whole-file answers); 0 for a range answer. */
    private final long tail;

    Body(HttpGet get, ClassicHttpResponse response, InputStream in, long length, long tail) {
      super(HttpRangeSource.this.uri, in, length, options.stallTimeout(), "body", "connection");
      this.get = get;
      this.response = response;
      this.tail = tail;
    }

    @Override
    SourceException broken(IOException e) {
      return e instanceof ConnectionClosedException ? ended(e) : super.broken(e);
    }

    @Override
    void complete() throws IOException {
      if (tail == 0) {
        expectEnd();
      }
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() throws IOException {
      if (!open || response == null) {
        open = false;
        return;
      }
      open = false;
      long left = length - read + tail;
      if (left > 0 && left <= DRAIN_LIMIT && Thread.currentThread() == reader) {
        try {
          in.skipNBytes(left);
          in.close();
          response.close();
          return;
        } catch (IOException e) {
          // fall through and drop the connection
        }
      }
      if (left > 0) {
        get.cancel();
      }
      try {
        in.close();
      } catch (IOException e) {
        // the connection is dropped anyway
      }
      response.close();
    }
  }
}
