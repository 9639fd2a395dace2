package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.protocol.RedirectLocations;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.HttpEntity;
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

  /** Remainders at most this long are read to the end so the connection can be reused. */
  static final long DRAIN_LIMIT = 64 * 1024;

  private final URI uri;

  /** The URL requested: {@link #uri} with {@code davs} as {@code https}, {@code dav} as http. */
  private final URI target;

  private final SourceOptions options;
  private final CloseableHttpClient client;
  private final boolean ownsClient;
  private final HttpAnswers answers;
  private volatile Validators probed;

  /**
   * The replica's own connections once its first answer came straight from its URL, when it is on
   * this machine ({@link NearHttp}); null: every range goes through the pooled client.
   */
  private volatile NearHttp near;

  /**
   * Whether {@link #near} may be used: for a source with a client of its own (a dataset's sources
   * share their server's pooled connections, which a connection per source would not).
   */
  private final boolean mayGoNear;

  /**
   * Creates a source with its own connection pool of {@link SourceOptions#connectionsPerSource()}
   * connections, or the count for distant replicas ({@link Engine#FAR_CONNECTIONS}) if more, plus
   * one for probes and one for a connection being renewed ({@link Renewal}).
   *
   * @throws IllegalArgumentException if the URL is not http(s) or the TLS material is unusable
   */
  public HttpRangeSource(URI uri, SourceOptions options) {
    this(uri, options, client(uri, options, poolSize(options)), true);
  }

  /** Connections in a source's own pool: see {@link #HttpRangeSource(URI, SourceOptions)}. */
  static int poolSize(SourceOptions options) {
    return Math.max(options.connectionsPerSource(), Engine.FAR_CONNECTIONS) + 2;
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

  /**
   * A source with its own pool, as {@link #HttpRangeSource(URI, SourceOptions)}, that reads every
   * range through that pool, never over near connections (tests of the pooled client's reuse).
   */
  static HttpRangeSource pooled(URI uri, SourceOptions options) {
    return new HttpRangeSource(uri, options, client(uri, options, poolSize(options)), true, false);
  }

  private HttpRangeSource(
      URI uri, SourceOptions options, CloseableHttpClient client, boolean ownsClient) {
    this(uri, options, client, ownsClient, ownsClient);
  }

  private HttpRangeSource(
      URI uri,
      SourceOptions options,
      CloseableHttpClient client,
      boolean ownsClient,
      boolean mayGoNear) {
    this.mayGoNear = mayGoNear;
    this.uri = uri;
    this.target = HttpReplicaClient.httpTarget(uri);
    this.answers = new HttpAnswers(uri);
    this.options = options;
    this.client = client;
    this.ownsClient = ownsClient;
  }

  /**
   * A client for the server of {@code uri}, with a pool of at most {@code connections} keep-alive
   * connections; the bearer token goes to that server only ({@link HttpReplicaClient#create}).
   */
  static CloseableHttpClient client(URI uri, SourceOptions options, int connections) {
    return HttpReplicaClient.create(uri, options, connections);
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
    HttpClientContext context = HttpClientContext.create();
    ClassicHttpResponse r = execute(get, context);
    boolean reusable = false;
    try {
      HttpAnswers.Probed answer = answers.probe(r);
      reusable = answer.reusable();
      probed = answer.validators();
      answeredDirectly(context);
      return answer.validators();
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

  /**
   * {@inheritDoc}
   *
   * <p>One ranged GET that asks for the digests too: its status, {@code Content-Range} and
   * validators are checked as the probe's and become this source's probe answer, and when it
   * carries exactly the requested bytes its body is returned unread. The wait for the answer's
   * headers is bounded by {@link SourceOptions#probeTimeout()}; the body then by the stall timeout,
   * as every range's. An answer without usable data is not read beyond a short body (the connection
   * is closed instead).
   */
  @Override
  public First openFirst(long offset, long length) throws IOException {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("bad first range: " + offset + "+" + length);
    }
    HttpGet get = request(offset, length);
    get.setHeader("Want-Repr-Digest", HttpDigests.WANT_REPR_DIGEST);
    get.setHeader("Want-Digest", HttpDigests.WANT_DIGEST);
    Duration limit = options.probeTimeout();
    ClassicHttpResponse r;
    HttpClientContext context = HttpClientContext.create();
    try (Deadlines.Armed deadline = Deadlines.after(limit, get::cancel)) {
      try {
        r = execute(get, context);
      } catch (IOException e) {
        if (deadline.expired()) {
          throw new SourceException.StalledException(
              uri, "no complete answer to the probe within " + seconds(limit), e);
        }
        throw e;
      }
      if (deadline.expired()) {
        r.close();
        throw new SourceException.StalledException(
            uri, "no complete answer to the probe within " + seconds(limit), null);
      }
    }
    try {
      HttpAnswers.First a = answers.first(r, offset, length);
      remember(a.validators());
      answeredDirectly(context);
      HttpEntity e = r.getEntity();
      if (a.exact() && e != null) {
        return new First(a.validators(), new Body(get, r, e.getContent(), length, 0));
      }
      discard(get, r);
      return new First(a.validators(), null);
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

  /** Keeps the first answer's validators; a later one must be of the same version. */
  private synchronized void remember(Validators v) throws SourceException {
    Validators p = probed;
    if (p == null) {
      probed = v;
    } else if (!p.sameVersion(v)) {
      throw new SourceException.ReplicaChangedException(
          uri, "file changed on the server (ETag " + p.etag() + " -> " + v.etag() + ")");
    }
  }

  /**
   * After a first answer: the later ranges go over {@link NearHttp} connections when this source
   * may use them ({@link #mayGoNear}), the answer came from the URL itself (no redirect) and the
   * replica is near ({@link NearHttp#of}).
   */
  private synchronized void answeredDirectly(HttpClientContext context) {
    if (near != null || !mayGoNear) {
      return;
    }
    RedirectLocations redirects = context.getRedirectLocations();
    if (redirects == null || redirects.getAll().isEmpty()) {
      near = NearHttp.of(uri, target, options);
    }
  }

  /** Whether ranges are read over near connections ({@link NearHttp}) from now on. */
  boolean near() {
    return near != null;
  }

  /** Ends an answer whose body is not wanted: a short one read to its end, any other dropped. */
  private static void discard(HttpGet get, ClassicHttpResponse r) {
    HttpEntity e = r.getEntity();
    long declared = e == null ? 0 : e.getContentLength();
    try {
      if (e != null && declared >= 0 && declared <= DRAIN_LIMIT) {
        try (InputStream in = e.getContent()) {
          in.skipNBytes(declared);
        }
      } else if (e != null) {
        get.cancel();
      }
      r.close();
    } catch (IOException ex) {
      get.cancel();
    }
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
  }

  @Override
  public ReadableByteChannel open(long offset, long length) throws IOException {
    return open(offset, length, null);
  }

  /**
   * As {@link #open(long, long)}, on a connection kept for {@code key} (or any, for null): a pooled
   * connection is reused only by requests with an equal key (or, once, by the first keyed request
   * after an unkeyed one, such as the probe's), so that a flow keeps its own warm connection and a
   * new key always gets a new one (HttpClient's connection state, {@link
   * HttpClientContext#setUserToken}). The answer is a {@link KeptConnection}.
   */
  ReadableByteChannel open(long offset, long length, Object key) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("range must not be negative: " + offset + "+" + length);
    }
    Validators p = probed;
    if (length == 0) {
      return new Body(null, null, null, 0, 0);
    }
    boolean whole = p != null && !p.ranges();
    NearHttp direct = near;
    if (direct != null && !whole) {
      try {
        return direct.open(offset, length, key, (r, o, l) -> answers.check(r, o, l, p));
      } catch (NearHttp.NotPlain e) {
        LOG.debug("{}: {}; reading every range through the pooled client", uri, e.getMessage());
        near = null;
        direct.close();
      }
    }
    HttpGet get = whole ? new HttpGet(target) : request(offset, length);
    ClassicHttpResponse r = executeHead(get, key);
    try {
      if (whole) {
        answers.checkWhole(r, offset, length, p);
      } else {
        answers.check(r, offset, length, p);
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
  private ClassicHttpResponse executeHead(HttpGet get, Object key) throws SourceException {
    Duration limit = options.connectTimeout().plus(options.stallTimeout());
    ClassicHttpResponse r;
    try (Deadlines.Armed deadline = Deadlines.after(limit, get::cancel)) {
      try {
        r = execute(get, key);
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

  private ClassicHttpResponse execute(HttpGet get, Object key) throws SourceException {
    HttpClientContext context = null;
    if (key != null) {
      context = HttpClientContext.create();
      context.setUserToken(key);
    }
    return execute(get, context);
  }

  private ClassicHttpResponse execute(HttpGet get, HttpClientContext context)
      throws SourceException {
    try {
      return client.executeOpen(null, get, context);
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
    return HttpPipe.open(
        target, options, (r, offset, length) -> answers.check(r, offset, length, probed));
  }

  @Override
  public void close() throws IOException {
    NearHttp n = near;
    if (n != null) {
      n.close();
    }
    if (ownsClient) {
      client.close();
    }
  }

  /** The body of one range response: exactly {@code length} bytes, or an exception. */
  private final class Body extends ExactBody implements KeptConnection {
    private final HttpGet get;
    private final ClassicHttpResponse response;
    private volatile Thread reader = Thread.currentThread();
    private volatile long drainLimit = DRAIN_LIMIT;
    private volatile boolean drop;
    private volatile boolean kept;
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
      if (drop && get != null) {
        // before the end is read: at the end HttpClient returns the connection to its pool
        get.cancel();
        return;
      }
      if (tail == 0) {
        expectEnd();
      }
    }

    @Override
    public void dropConnection() {
      drop = true;
    }

    @Override
    public boolean connectionKept() {
      return kept;
    }

    @Override
    public void drainUpTo(long bytes) {
      reader = Thread.currentThread();
      drainLimit = Math.max(0, bytes);
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
      if (drop) {
        get.cancel();
      } else if (left > 0 && left <= drainLimit && Thread.currentThread() == reader) {
        try {
          in.skipNBytes(left);
          in.close();
          response.close();
          kept = true;
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
      kept = !drop && left <= 0;
    }
  }
}
