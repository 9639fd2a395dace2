package org.braid.coalloc;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.braid.coalloc.credentials.GridEnvironment;

/**
 * HTTP/1.1 pipelining to one plain-http replica over a socket of its own (RFC 9112, section 9.3):
 * range requests written ahead, answers read in order. Each answer is checked by its {@link
 * HttpRangeSource} exactly as a single request's is, must carry a {@code Content-Length} (its
 * framing) and no {@code Transfer-Encoding}, and its status and header lines stay within {@link
 * HttpLimits}, read within the connect plus the stall timeout. No redirects and no proxy: an answer
 * other than 206 fails like any bad answer. A server that says {@code Connection: close} answers no
 * request after that one: the next {@link #next} fails and the caller opens a new pipe.
 */
final class HttpPipe implements Pipe {
  /** Checks an answer's status and headers against the request. */
  @FunctionalInterface
  interface Check {
    void check(ClassicHttpResponse r, long offset, long length) throws SourceException;
  }

  private final URI uri;
  private final SourceOptions options;
  private final Check check;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String head;
  private final ArrayDeque<long[]> sent = new ArrayDeque<>();
  private Body body;
  private boolean lastAnswer;
  private long connectNanos = -1;

  private HttpPipe(URI uri, SourceOptions options, Check check, Socket socket) throws IOException {
    this.uri = uri;
    this.options = options;
    this.check = check;
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 8 * 1024);
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
    StringBuilder h = new StringBuilder();
    h.append("GET ").append(path).append(query).append(" HTTP/1.1\r\n");
    h.append("Host: ").append(uri.getHost()).append(uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    h.append("\r\nUser-Agent: ").append(options.userAgent()).append("\r\n");
    // the same token rules (TLS only unless allowed) and user headers as the pooled client's
    String token = GridAccess.token(uri, options, GridEnvironment.of(options.environment()));
    if (token != null) {
      h.append("Authorization: Bearer ").append(token).append("\r\n");
    }
    options.headers().forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
    this.head = h.toString();
  }

  /**
   * Connects to the replica, an http URL (https stays with the pooled client and its credentials).
   *
   * @throws SourceException if the connection cannot be made
   */
  static HttpPipe open(URI uri, SourceOptions o, Check check) throws SourceException {
    String host = uri.getHost();
    if (host == null) {
      throw new SourceException.ConnectionException(uri, "no host in the URL", null);
    }
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    int port = uri.getPort() >= 0 ? uri.getPort() : 80;
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      long t0 = System.nanoTime();
      s.connect(new InetSocketAddress(bare, port), millis(o.connectTimeout()));
      long took = System.nanoTime() - t0;
      s.setSoTimeout(millis(o.stallTimeout()));
      HttpPipe p = new HttpPipe(uri, o, check, s);
      p.connectNanos = took;
      return p;
    } catch (IOException e) {
      closeQuietly(s);
      throw new SourceException.ConnectionException(
          uri, "connect failed: " + HttpRangeSource.describe(e), e);
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
  }

  @Override
  public void send(long offset, long length) throws IOException {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("bad range " + offset + "+" + length);
    }
    String req = head + "Range: bytes=" + offset + "-" + (offset + length - 1) + "\r\n\r\n";
    try {
      out.write(req.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    } catch (IOException e) {
      throw new SourceException.ConnectionException(
          uri, "sending a request failed: " + HttpRangeSource.describe(e), e);
    }
    sent.add(new long[] {offset, length});
  }

  @Override
  public long connectNanos() {
    return connectNanos;
  }

  @Override
  public ReadableByteChannel next() throws IOException {
    if (body != null && body.read < body.length) {
      throw new IllegalStateException("the answer before is not read to its end");
    }
    long[] r = sent.poll();
    if (r == null) {
      throw new IllegalStateException("no request waiting for its answer");
    }
    if (lastAnswer) {
      throw new SourceException.ConnectionException(
          uri, "server closed the connection (Connection: close) before answering", null);
    }
    Duration limit = options.connectTimeout().plus(options.stallTimeout());
    ClassicHttpResponse a;
    try (Deadlines.Armed deadline = Deadlines.after(limit, () -> closeQuietly(socket))) {
      try {
        a = readHead();
      } catch (IOException e) {
        if (deadline.expired()) {
          throw new SourceException.StalledException(
              uri, "no response headers within " + limit.toSeconds() + " s", e);
        }
        throw e;
      }
    }
    check.check(a, r[0], r[1]);
    if (a.getFirstHeader("Transfer-Encoding") != null
        || a.getFirstHeader("Content-Length") == null) {
      throw new SourceException.BadRangeException(
          uri, "answer to a pipelined range request without a plain Content-Length");
    }
    lastAnswer = HttpHead.hasToken(a, "Connection", "close");
    body = new Body(in, r[1]);
    return body;
  }

  /** Reads a status line and headers (skipping interim 1xx answers). */
  private ClassicHttpResponse readHead() throws IOException {
    return HttpHead.read(uri, this::nextByte);
  }

  /** The answer's next byte, or -1 at the end of the stream. */
  private int nextByte() throws IOException {
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      throw new SourceException.StalledException(
          uri, "no answer within " + options.stallTimeout().toSeconds() + " s", e);
    } catch (IOException e) {
      throw new SourceException.ConnectionException(
          uri, "reading an answer failed: " + HttpRangeSource.describe(e), e);
    }
  }

  @Override
  public void close() {
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  /** One answer's body; closing it does nothing (the pipe is closed as a whole). */
  private final class Body extends ExactBody {
    private boolean open = true;

    Body(InputStream in, long length) {
      super(HttpPipe.this.uri, in, length, options.stallTimeout(), "body", "connection");
    }

    @Override
    void complete() {
      // the next answer follows on the same connection
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }
  }
}
