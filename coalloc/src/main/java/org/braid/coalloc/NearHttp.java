package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.braid.coalloc.credentials.GridEnvironment;

/**
 * Range requests to a plain-http replica on this machine over keep-alive connections of its own,
 * each a {@link SocketChannel} whose answer bodies are read straight into the caller's buffer: into
 * a direct buffer the kernel copies the bytes once, and the part file's positional write takes them
 * from there, where the pooled client's socket streams copy every byte twice more in Java (into a
 * heap array and out of it) and read at most 128 KiB per call. At memory speed those copies were
 * most of the fetching threads' CPU (issue 17: 2 GB from one local nginx, 1.85-1.87 CPU s through a
 * socket stream, 1.10-1.18 s through a channel into a direct buffer; docs/download.md, "CPU"). Only
 * for replicas on this machine: a connection of its own costs a new connect for each flow's second
 * request, which is nothing there and a round trip elsewhere.
 *
 * <p>Every answer is checked as the pooled client's ({@link HttpRangeSource#open}): status,
 * Content-Range, Content-Length (required, the framing; no Transfer-Encoding) and validators,
 * status and header lines within {@link HttpLimits} and the connect plus the stall timeout; a body
 * waits at most the stall timeout for each byte. No redirects and no proxy: the source uses these
 * connections only when its first answer came from the URL itself, with no proxy on the way. A
 * pooled connection the server has closed meanwhile is replaced once, before any byte of its answer
 * was read. Thread-safe.
 */
final class NearHttp implements Closeable {
  /**
   * The system property that keeps every range on the pooled client when {@code false}, e.g. {@code
   * BRAID_JAVA_OPTS=-Dbraid.nearHttp=false}, to compare within one build.
   */
  static final String PROPERTY = "braid.nearHttp";

  /** Bytes of an answer's head read at a time (the body's first bytes may come with it). */
  static final int HEAD_BUFFER = 16 * 1024;

  /**
   * An answer not framed by a plain Content-Length (chunked, or ended by closing the connection):
   * the caller asks again through the pooled client, which reads such bodies, and from then on
   * always does for this replica.
   */
  static final class NotPlain extends IOException {
    private static final long serialVersionUID = 1L;

    NotPlain() {
      super("range answer without a plain Content-Length");
    }
  }

  /** Checks an answer's status and headers against the request. */
  @FunctionalInterface
  interface Check {
    void check(ClassicHttpResponse r, long offset, long length) throws SourceException;
  }

  private final URI uri;
  private final String host;
  private final int port;
  private final SourceOptions options;
  private final String head;
  private final List<Conn> idle = new ArrayList<>();
  private boolean closed;

  private NearHttp(URI uri, URI target, SourceOptions options) {
    this.uri = uri;
    String h = target.getHost();
    this.host = h.startsWith("[") ? h.substring(1, h.length() - 1) : h;
    this.port = target.getPort() >= 0 ? target.getPort() : 80;
    this.options = options;
    String path =
        target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
    String query = target.getRawQuery() == null ? "" : "?" + target.getRawQuery();
    StringBuilder b = new StringBuilder();
    b.append("GET ").append(path).append(query).append(" HTTP/1.1\r\n");
    b.append("Host: ").append(target.getHost());
    b.append(target.getPort() >= 0 ? ":" + target.getPort() : "").append("\r\n");
    b.append("User-Agent: ").append(options.userAgent()).append("\r\n");
    // the same token rules (TLS only unless allowed) and user headers as the pooled client's
    String token = GridAccess.token(target, options, GridEnvironment.of(options.environment()));
    if (token != null) {
      b.append("Authorization: Bearer ").append(token).append("\r\n");
    }
    options.headers().forEach((k, v) -> b.append(k).append(": ").append(v).append("\r\n"));
    this.head = b.toString();
  }

  /**
   * Near connections for the replica {@code uri} (requested as {@code target}), or null when it is
   * not one: not plain http, not on this machine (a loopback host), reached through a forward
   * proxy, or turned off ({@link #PROPERTY}).
   */
  static NearHttp of(URI uri, URI target, SourceOptions options) {
    if ("false".equals(System.getProperty(PROPERTY))
        || !"http".equalsIgnoreCase(target.getScheme())
        || target.getHost() == null
        || !Engine.loopback(target)
        || GridEnvironment.of(options.environment()).proxyFor("http", target.getHost()) != null) {
      return null;
    }
    return new NearHttp(uri, target, options);
  }

  /**
   * Sends the request for {@code [offset, offset + length)} on an idle connection kept for {@code
   * key} (or for none), else a new one, and returns its checked answer's body: exactly {@code
   * length} bytes. Closing the body at its end keeps the connection for the next request of the
   * same key.
   */
  ReadableByteChannel open(long offset, long length, Object key, Check check) throws IOException {
    String request = head + "Range: bytes=" + offset + "-" + (offset + length - 1) + "\r\n\r\n";
    Conn c = take(key);
    ClassicHttpResponse a;
    if (c != null) {
      try {
        a = exchange(c, request);
      } catch (IOException e) {
        c.close();
        if (c.answered) {
          throw e;
        }
        // closed by the server while it idled in the pool: once more, on a new connection
        c = connect();
        a = exchange(c, request);
      }
    } else {
      c = connect();
      a = exchange(c, request);
    }
    if (a.getFirstHeader("Transfer-Encoding") != null
        || a.getFirstHeader("Content-Length") == null) {
      c.close();
      throw new NotPlain();
    }
    try {
      check.check(a, offset, length);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
    return new Body(c, length, key, HttpHead.hasToken(a, "Connection", "close"));
  }

  private ClassicHttpResponse exchange(Conn c, String request) throws IOException {
    try {
      c.send(request.getBytes(StandardCharsets.ISO_8859_1));
      return c.readHead();
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private synchronized Conn take(Object key) {
    for (Iterator<Conn> it = idle.iterator(); it.hasNext(); ) {
      Conn c = it.next();
      if (Objects.equals(c.key, key)) {
        it.remove();
        return c;
      }
    }
    // a keyed request may take, once, a connection kept for none (HttpClient's user token rule)
    if (key != null) {
      for (Iterator<Conn> it = idle.iterator(); it.hasNext(); ) {
        Conn c = it.next();
        if (c.key == null) {
          it.remove();
          return c;
        }
      }
    }
    return null;
  }

  private void give(Conn c, Object key) {
    synchronized (this) {
      if (!closed) {
        c.key = key;
        c.answered = false;
        idle.add(c);
        return;
      }
    }
    c.close();
  }

  private Conn connect() throws SourceException {
    SocketChannel ch = null;
    try {
      ch = SocketChannel.open();
      ch.socket().setTcpNoDelay(true);
      ch.socket().connect(new InetSocketAddress(host, port), millis(options.connectTimeout()));
      return new Conn(ch);
    } catch (IOException e) {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException closing) {
          e.addSuppressed(closing);
        }
      }
      throw new SourceException.ConnectionException(
          uri, "connect failed: " + HttpRangeSource.describe(e), e);
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
  }

  /** Closes the idle connections; those in use close with their answers. */
  @Override
  public void close() {
    List<Conn> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(idle);
      idle.clear();
    }
    all.forEach(Conn::close);
  }

  /** Idle connections kept (tests). */
  synchronized int idle() {
    return idle.size();
  }

  /**
   * One connection: a non-blocking channel waited on with a selector of its own (a blocking
   * channel's reads do not time out), and the bytes read with an answer's head but not yet taken.
   * Read by one thread; {@link #close} may come from any other and makes a waiting read fail.
   */
  private final class Conn {
    private final SocketChannel ch;
    private final Selector selector;
    private final SelectionKey selected;
    private final ByteBuffer pending = ByteBuffer.allocate(HEAD_BUFFER).flip();
    private Object key;

    /** Whether a byte of the current answer was read (a stale connection fails before that). */
    private boolean answered;

    Conn(SocketChannel ch) throws IOException {
      this.ch = ch;
      ch.configureBlocking(false);
      this.selector = Selector.open();
      this.selected = ch.register(selector, SelectionKey.OP_READ);
    }

    void send(byte[] request) throws IOException {
      ByteBuffer b = ByteBuffer.wrap(request);
      long deadline = System.nanoTime() + options.stallTimeout().toNanos();
      while (b.hasRemaining()) {
        if (ch.write(b) == 0) {
          if (System.nanoTime() >= deadline) {
            throw new SocketTimeoutException("no room to send a request");
          }
          selected.interestOps(SelectionKey.OP_WRITE);
          try {
            await(deadline);
          } finally {
            selected.interestOps(SelectionKey.OP_READ);
          }
        }
      }
    }

    /** The status line and headers of the next answer (interim 1xx answers skipped). */
    ClassicHttpResponse readHead() throws IOException {
      Duration limit = options.connectTimeout().plus(options.stallTimeout());
      long deadline = System.nanoTime() + limit.toNanos();
      return HttpHead.read(uri, () -> nextByte(deadline, limit));
    }

    /** The answer's next byte by the deadline, or -1 at the end of the stream. */
    private int nextByte(long deadline, Duration limit) throws IOException {
      if (!pending.hasRemaining()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new SourceException.StalledException(
              uri, "no response headers within " + limit.toSeconds() + " s", null);
        }
        pending.clear();
        int n;
        try {
          n = fill(pending, Duration.ofNanos(left));
        } catch (SocketTimeoutException e) {
          throw new SourceException.StalledException(
              uri, "no response headers within " + limit.toSeconds() + " s", e);
        } catch (IOException e) {
          throw new SourceException.ConnectionException(
              uri, "reading an answer failed: " + HttpRangeSource.describe(e), e);
        } finally {
          pending.flip();
        }
        if (n < 0) {
          return -1;
        }
        answered = true;
      }
      return pending.get() & 0xff;
    }

    /**
     * Reads at most {@code max} bytes of a body into {@code dst}: first what came with the head,
     * then straight from the channel, waiting at most the stall timeout; -1 at the end of the
     * stream.
     */
    int read(ByteBuffer dst, long max) throws IOException {
      int want = (int) Math.min(dst.remaining(), max);
      if (pending.hasRemaining()) {
        int n = Math.min(want, pending.remaining());
        ByteBuffer part = pending.duplicate();
        part.limit(part.position() + n);
        dst.put(part);
        pending.position(pending.position() + n);
        return n;
      }
      int limit = dst.limit();
      dst.limit(dst.position() + want);
      try {
        return fill(dst, options.stallTimeout());
      } finally {
        dst.limit(limit);
      }
    }

    /** Reads what the channel has into {@code dst}, waiting at most {@code wait} for a byte. */
    private int fill(ByteBuffer dst, Duration wait) throws IOException {
      int n = ch.read(dst);
      if (n != 0 || !dst.hasRemaining()) {
        return n;
      }
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        await(deadline);
        n = ch.read(dst);
        if (n != 0) {
          return n;
        }
        if (System.nanoTime() >= deadline) {
          throw new SocketTimeoutException("no data for " + wait.toMillis() + " ms");
        }
      }
    }

    /** Waits until the channel is ready, {@code deadline} passes or it is closed (then throws). */
    private void await(long deadline) throws IOException {
      try {
        selector.select(Math.max(1, (deadline - System.nanoTime() + 999_999) / 1_000_000));
        selector.selectedKeys().clear();
      } catch (ClosedSelectorException e) {
        throw new AsynchronousCloseException();
      }
      if (!ch.isOpen()) {
        throw new AsynchronousCloseException();
      }
    }

    void close() {
      try {
        ch.close();
      } catch (IOException e) {
        // closing anyway
      }
      selector.wakeup();
      try {
        selector.close();
      } catch (IOException | RuntimeException e) {
        // closing anyway
      }
    }
  }

  /**
   * One answer's body over a near connection: exactly {@code length} bytes or a {@link
   * SourceException} naming the bytes read. Read by one thread; {@link #close} may come from any.
   */
  final class Body implements ReadableByteChannel, KeptConnection {
    private final Conn conn;
    private final long length;
    private final Object key;
    private final boolean last;
    private final Thread reader = Thread.currentThread();
    private volatile long read;
    private volatile long drainLimit = HttpRangeSource.DRAIN_LIMIT;
    private volatile boolean drop;
    private volatile boolean kept;
    private volatile boolean open = true;

    private Body(Conn conn, long length, Object key, boolean last) {
      this.conn = conn;
      this.length = length;
      this.key = key;
      this.last = last;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      if (read >= length) {
        return -1;
      }
      if (!dst.hasRemaining()) {
        return 0;
      }
      int n;
      try {
        n = conn.read(dst, length - read);
      } catch (SocketTimeoutException e) {
        throw ExactBody.stalled(uri, options.stallTimeout(), read, length, e);
      } catch (IOException e) {
        throw new SourceException.ConnectionException(
            uri,
            "connection failed after "
                + read
                + " of "
                + length
                + " bytes: "
                + HttpRangeSource.describe(e),
            e);
      }
      if (n < 0) {
        throw new SourceException.BodyLengthException(
            uri, "body ended after " + read + " of " + length + " bytes", null);
      }
      read += n;
      return n;
    }

    @Override
    public void dropConnection() {
      drop = true;
    }

    @Override
    public void drainUpTo(long bytes) {
      drainLimit = Math.max(0, bytes);
    }

    @Override
    public boolean connectionKept() {
      return kept;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      if (!open) {
        return;
      }
      open = false;
      long left = length - read;
      if (!drop && !last && left > 0 && left <= drainLimit && Thread.currentThread() == reader) {
        left = drain(left);
      }
      if (!drop && !last && left == 0) {
        kept = true;
        give(conn, key);
      } else {
        conn.close();
      }
    }

    /** Reads and drops the rest of the answer; returns what is left (0 when all was read). */
    private long drain(long left) {
      ByteBuffer scratch = ByteBuffer.allocate((int) Math.min(left, 64 * 1024));
      try {
        while (left > 0) {
          scratch.clear();
          int n = conn.read(scratch, left);
          if (n < 0) {
            return left;
          }
          left -= n;
        }
        return 0;
      } catch (IOException e) {
        return left;
      }
    }
  }
}
