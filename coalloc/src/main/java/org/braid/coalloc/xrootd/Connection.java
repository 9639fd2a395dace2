package org.braid.coalloc.xrootd;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.xrootd.Frame.Header;
import org.braid.coalloc.xrootd.Frame.Response;

/**
 * One logged-in connection to an XRootD server: the handshake, kXR_protocol (switching to TLS for
 * {@code roots://}), kXR_login and, when the server asks for it, kXR_auth by the {@code unix} or
 * {@code host} protocol. {@link #call} sends a request and waits for its answer, waiting out
 * kXR_wait and kXR_waitresp; kXR_redirect is returned to the caller. Every response is bounded:
 * {@link #MAX_RESPONSE} bytes except read data, which the caller streams. One request at a time;
 * not thread-safe.
 */
final class Connection implements Closeable {
  /** The longest response this client accepts, except read data. */
  static final int MAX_RESPONSE = 64 * 1024;

  /** How many kXR_wait answers one request may get before it fails. */
  static final int MAX_WAITS = 10;

  static final int STREAM = 1;

  /** The highest stream id a batch of requests uses. */
  static final int MAX_STREAM = 4;

  final URI replica;
  final Target target;
  private final Duration stall;

  /** When a {@link #callWithin} call must have its answer (System.nanoTime), 0 for none. */
  private long budgetEnd;

  Socket socket;
  private DataInputStream in;
  private OutputStream out;

  private Connection(URI replica, Target target, Socket socket, Duration stall) throws IOException {
    this.replica = replica;
    this.target = target;
    this.stall = stall;
    use(socket);
  }

  OutputStream out() {
    return out;
  }

  void use(Socket s) throws IOException {
    this.socket = s;
    this.in = new DataInputStream(s.getInputStream());
    this.out = s.getOutputStream();
  }

  /**
   * Connects to the target and logs in.
   *
   * @param replica the replica's URL, named in every failure
   * @param tls makes the TLS context, for {@code roots://} only
   * @throws SourceException if the server refuses or answers wrongly
   */
  static Connection open(URI replica, Target target, SourceOptions o, Supplier<SSLContext> tls)
      throws IOException {
    Socket s = new Socket();
    try {
      s.connect(
          new InetSocketAddress(target.host(), target.port()), (int) o.connectTimeout().toMillis());
      s.setSoTimeout((int) o.stallTimeout().toMillis());
      s.setTcpNoDelay(true);
      Connection c = new Connection(replica, target, s, o.stallTimeout());
      Login.logIn(c, tls);
      return c;
    } catch (SourceException e) {
      s.close();
      throw e;
    } catch (SocketTimeoutException e) {
      s.close();
      throw new SourceException.StalledException(
          replica,
          "no answer from " + target.server() + " within " + o.stallTimeout().toSeconds() + " s",
          e);
    } catch (IOException e) {
      s.close();
      throw new SourceException.ConnectionException(
          replica, "connecting to " + target.server() + " failed: " + describe(e), e);
    }
  }

  /**
   * One request of a batch ({@link #callAll}): its stream id and bytes, then its final answer
   * (kXR_ok with the kXR_oksofar parts joined, or kXR_redirect) or its refusal (kXR_error).
   */
  static final class Call {
    final int streamId;
    final int request;
    final byte[] bytes;
    private final ByteArrayOutputStream parts = new ByteArrayOutputStream();
    private int waits;
    Response answer;
    Refused refused;

    Call(int streamId, int request, byte[] params, byte[] data) {
      this.streamId = streamId;
      this.request = request;
      this.bytes = Frame.request(streamId, request, params, data);
    }

    boolean done() {
      return answer != null || refused != null;
    }

    /** The final answer; the refusal is thrown. */
    Response answer() throws Refused {
      if (refused != null) {
        throw refused;
      }
      return answer;
    }
  }

  /**
   * Sends a request and returns its final answer: kXR_ok (parts sent as kXR_oksofar joined) or
   * kXR_redirect. kXR_wait is waited out (at most {@link #MAX_WAITS} times, each no longer than the
   * stall timeout) and the request sent again; kXR_waitresp waits for the asynchronous answer.
   *
   * @throws SourceException for kXR_error and protocol violations
   */
  Response call(int request, byte[] params, byte[] data) throws IOException {
    Call c = new Call(STREAM, request, params, data);
    callAll(c);
    return c.answer();
  }

  /**
   * Sends the requests (each with its own stream id, at most {@link #MAX_STREAM}) in one write and
   * reads until each has its final answer or refusal, as {@link #call} does for one: a batch costs
   * one round trip. The server may answer them in any order.
   *
   * @throws SourceException for protocol violations
   */
  void callAll(Call... calls) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Call c : calls) {
      all.writeBytes(c.bytes);
    }
    send(all.toByteArray());
    await(calls);
  }

  /** Reads the answers of requests already sent, as {@link #callAll} does. */
  void await(Call... calls) throws IOException {
    while (true) {
      Call c = null;
      boolean pending = false;
      for (Call x : calls) {
        pending |= !x.done();
      }
      if (!pending) {
        return;
      }
      Header h = nextHeader();
      for (Call x : calls) {
        if (x.streamId == h.streamId() && !x.done()) {
          c = x;
        }
      }
      if (c == null) {
        throw protocolError("answer for stream " + h.streamId() + ", which has no request");
      }
      answer(c, h, response(h));
    }
  }

  private void answer(Call c, Header h, Response r) throws IOException {
    switch (h.status()) {
      case Xrd.OKSOFAR:
        if (c.parts.size() + r.body().length > MAX_RESPONSE) {
          throw protocolError(
              Xrd.requestName(c.request) + " answer longer than " + MAX_RESPONSE + " bytes");
        }
        c.parts.write(r.body());
        return;
      case Xrd.OK:
        if (c.parts.size() == 0) {
          c.answer = r;
        } else {
          c.parts.write(r.body());
          c.answer = new Response(Xrd.OK, c.parts.toByteArray());
        }
        return;
      case Xrd.REDIRECT:
        c.answer = r;
        return;
      case Xrd.WAIT:
        waitOut(c.request, r, ++c.waits);
        c.parts.reset();
        send(c.bytes);
        return;
      case Xrd.WAITRESP:
        awaitAsync(r);
        return;
      case Xrd.ERROR:
        c.refused = error(c.request, r);
        return;
      default:
        throw protocolError(
            "unexpected status " + h.status() + " in answer to " + Xrd.requestName(c.request));
    }
  }

  /**
   * {@link #call}, but the answer must come within {@code budget}, waits included; else a {@link
   * SocketTimeoutException} leaves the connection out of step (close it).
   */
  Response callWithin(int request, byte[] params, byte[] data, Duration budget) throws IOException {
    Call c = new Call(STREAM, request, params, data);
    callAllWithin(budget, c);
    return c.answer();
  }

  /**
   * {@link #callAll} within {@code budget}; on a {@link SocketTimeoutException} the calls that are
   * {@link Call#done} have their answers, and the connection is out of step (close it).
   */
  void callAllWithin(Duration budget, Call... calls) throws IOException {
    budgetEnd = System.nanoTime() + budget.toNanos();
    socket.setSoTimeout((int) Math.max(1, Math.min(stall.toMillis(), budget.toMillis())));
    try {
      callAll(calls);
    } finally {
      budgetEnd = 0;
      socket.setSoTimeout((int) stall.toMillis());
    }
  }

  /** Milliseconds left of the budget, or {@code max} when there is none. */
  private long budgetLeft(long max) throws SocketTimeoutException {
    if (budgetEnd == 0) {
      return max;
    }
    long left = (budgetEnd - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      throw new SocketTimeoutException("no answer within the time allowed");
    }
    return Math.min(max, left);
  }

  /** Sleeps as a kXR_wait answer asks, or fails if it asks too often or for too long. */
  void waitOut(int request, Response wait, int waits) throws IOException {
    int seconds = Math.max(0, wait.int0());
    String what = Xrd.requestName(request);
    if (waits > MAX_WAITS) {
      throw new SourceException(
          replica, target.server() + " asked to wait " + waits + " times for " + what, true, null);
    }
    if (seconds > stall.toSeconds()) {
      throw new SourceException(
          replica,
          target.server()
              + " asks to wait "
              + seconds
              + " s for "
              + what
              + ", longer than the stall timeout ("
              + wait.textAfterInt()
              + ")",
          true,
          null);
    }
    if (budgetLeft(Long.MAX_VALUE) < seconds * 1000L) {
      throw new SocketTimeoutException("the server asks to wait longer than the time allowed");
    }
    try {
      Thread.sleep(seconds * 1000L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for " + target.server());
    }
  }

  /**
   * kXR_waitresp: the answer comes later as kXR_attn, within the seconds the server names (an upper
   * bound, often 600: a checksum being computed); waits that long but at most ten stall timeouts,
   * plus one stall timeout.
   */
  void awaitAsync(Response waitresp) throws IOException {
    long seconds = Math.min(Math.max(0, waitresp.int0()), stall.toSeconds() * 10);
    long millis = budgetLeft(stall.toMillis() + seconds * 1000L);
    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, millis));
  }

  /** Sends a request without waiting. */
  void send(int request, byte[] params, byte[] data) throws IOException {
    send(Frame.request(STREAM, request, params, data));
  }

  void send(byte[] req) throws IOException {
    out.write(req);
    out.flush();
  }

  /**
   * The next response header for this client's stream; kXR_attn messages are skipped, and an
   * asynchronous response (kXR_attn kXR_asynresp) is unwrapped to the response it carries.
   */
  Header nextHeader() throws IOException {
    while (true) {
      Header h = Header.of(readN(Frame.RESPONSE_HEADER));
      if (h.status() != Xrd.ATTN) {
        checkStream(h);
        return h;
      }
      if (h.length() < 4 || h.length() > Integer.MAX_VALUE - 16) {
        throw protocolError("kXR_attn of " + h.length() + " bytes");
      }
      int action = in.readInt();
      if (action == Xrd.ASYNRESP && h.length() >= 16) {
        in.readInt(); // reserved
        Header inner = Header.of(readN(Frame.RESPONSE_HEADER));
        if (inner.length() != h.length() - 16) {
          throw protocolError("kXR_asynresp of " + h.length() + " bytes carries " + inner);
        }
        checkStream(inner);
        socket.setSoTimeout((int) stall.toMillis());
        return inner;
      }
      if (h.length() - 4 > MAX_RESPONSE) {
        throw protocolError("kXR_attn of " + h.length() + " bytes");
      }
      readN(h.length() - 4); // a message for the client's log: nothing to do
    }
  }

  private void checkStream(Header h) throws SourceException {
    if (h.streamId() < STREAM || h.streamId() > MAX_STREAM) {
      throw protocolError("answer for stream " + h.streamId() + ", expected " + STREAM);
    }
    if (h.length() < 0) {
      throw protocolError("negative answer length " + h.length());
    }
  }

  /** The data of a header that is not read data, at most {@link #MAX_RESPONSE} bytes. */
  Response response(Header h) throws IOException {
    if (h.length() > MAX_RESPONSE) {
      throw protocolError(
          "answer of " + h.length() + " bytes (status " + h.status() + "), limit " + MAX_RESPONSE);
    }
    return new Response(h.status(), readN(h.length()));
  }

  Response expect(int request, Response r) throws SourceException {
    if (r.status() != Xrd.OK) {
      throw protocolError(
          Xrd.requestName(request) + " answered with status " + r.status() + ", expected kXR_ok");
    }
    return r;
  }

  /** A kXR_error answer: the server refused a request; the connection stays usable. */
  static final class Refused extends SourceException {
    private static final long serialVersionUID = 1L;

    /** The error number (kXR_NotFound, ...). */
    final int errnum;

    Refused(URI uri, String message, int errnum) {
      super(uri, message, Xrd.retryable(errnum), null);
      this.errnum = errnum;
    }
  }

  /** The exception for a kXR_error answer to a request. */
  Refused error(int request, Response r) {
    int errnum = r.int0();
    String text = r.textAfterInt();
    String m =
        Xrd.requestName(request)
            + " failed on "
            + target.server()
            + ": "
            + Xrd.errorName(errnum)
            + (text.isEmpty() ? "" : ": " + text);
    if (errnum == Xrd.ERR_TLS_REQUIRED) {
      m += " (use roots://)";
    }
    return new Refused(replica, m, errnum);
  }

  SourceException protocolError(String what) {
    return new SourceException(
        replica, "XRootD protocol error from " + target.server() + ": " + what, false, null);
  }

  /** The stream of answers, for read data. */
  InputStream input() {
    return in;
  }

  byte[] readN(int n) throws IOException {
    byte[] b = new byte[n];
    try {
      in.readFully(b);
    } catch (EOFException e) {
      throw new SourceException.ConnectionException(
          replica, target.server() + " closed the connection", e);
    }
    return b;
  }

  /**
   * Sends kXR_close for the file handle without waiting for its answer (the server closes the file
   * when the connection ends anyway, so a download's end costs no round trip), then closes the
   * connection.
   */
  void closeFile(byte[] handle) {
    try {
      ByteBuffer p = Frame.params().put(handle);
      send(Xrd.CLOSE, p.array(), new byte[0]);
    } catch (IOException e) {
      // closing anyway
    }
    close();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // dropping it anyway
    }
  }

  static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = new byte[a.length + b.length];
    System.arraycopy(a, 0, c, 0, a.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
