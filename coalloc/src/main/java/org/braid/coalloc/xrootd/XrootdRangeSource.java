package org.braid.coalloc.xrootd;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.RangeSource;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.Validators;
import org.braid.coalloc.xrootd.Frame.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An XRootD replica ({@code root://host[:port]//path}, or {@code roots://} for a connection that
 * switches to TLS after the handshake), read with the XRootD protocol itself: handshake,
 * kXR_protocol, kXR_login, kXR_auth ({@code unix} or {@code host} when the server asks; none
 * otherwise), kXR_open with kXR_retstat (following kXR_redirect, at most {@value
 * Session#MAX_REDIRECTS} times), kXR_read per range, kXR_query for the checksum and kXR_close.
 * kXR_wait and kXR_waitresp are waited out. Each connection keeps the file open and serves one
 * range at a time; connections are kept and reused. Every range is checked against the probe's size
 * and modification time. Thread-safe.
 */
public final class XrootdRangeSource implements RangeSource {
  private static final Logger LOG = LoggerFactory.getLogger(XrootdRangeSource.class);
  private final URI uri;
  private final SourceOptions options;
  private final Target target;
  private final Supplier<SSLContext> tls;
  private final Deque<Session> idle = new ArrayDeque<>();
  private volatile Validators probed;

  /**
   * Creates a source; connects only when asked for something.
   *
   * @param uri a {@code root://} or {@code roots://} URL
   * @param options timeouts (connect, stall)
   * @param tls makes the TLS context for {@code roots://}, called once per connection
   * @throws IllegalArgumentException for another scheme or a URL without host or path
   */
  public XrootdRangeSource(URI uri, SourceOptions options, Supplier<SSLContext> tls) {
    this.target = Target.of(uri);
    this.uri = uri;
    this.options = Objects.requireNonNull(options, "options");
    this.tls = Objects.requireNonNull(tls, "tls");
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public String protocol() {
    return target.tls() ? "roots" : "root";
  }

  @Override
  public Validators probe() throws IOException {
    long t0 = System.nanoTime();
    Duration budget = options.probeTimeout().dividedBy(2);
    Session s = poll();
    if (s == null) {
      s = Session.open(uri, target, options, tls, budget); // the query goes with kXR_open
    }
    Validators v = s.validators;
    boolean ok = s.inStep;
    try {
      Connection.Call sum = s.checksum;
      if (sum == null) {
        sum = checksumCall(target.pathWithCgi(), null);
        ok = false;
        s.connection.callAllWithin(budget, sum);
        ok = true; // a whole answer, usable or not, leaves the connection in step
      }
      if (!sum.done()) {
        LOG.info("{}: no checksum answer within half the probe time limit: not checked", uri);
      } else {
        Optional<String> answer = checksumText(sum);
        if (answer.isPresent()) {
          Optional<Checksum> c = parseChecksum(s.connection, answer.get());
          if (c.isPresent()) {
            v = v.withChecksums(List.of(c.get()));
          }
        }
      }
    } catch (Connection.Refused e) {
      LOG.debug("{}: checksum query refused: {}", uri, e.getMessage());
    } catch (SocketTimeoutException e) {
      LOG.info("{}: no checksum answer within half the probe time limit: not checked", uri);
    } catch (SourceException e) {
      LOG.info("{}: checksum query failed, not checked against it: {}", uri, e.getMessage());
    } finally {
      release(s, ok);
    }
    LOG.debug("{}: probe answered in {} ms", uri, (System.nanoTime() - t0) / 1_000_000);
    probed = v;
    return v;
  }

  @Override
  public ReadableByteChannel open(long offset, long length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("range must not be negative: " + offset + "+" + length);
    }
    Validators p = probed;
    if (p != null && offset + length > p.size()) {
      throw new SourceException.BadRangeException(
          uri,
          "range " + offset + "+" + length + " is past the end of the file (" + p.size() + ")");
    }
    Session s = take();
    if (p != null && !p.sameVersion(s.validators)) {
      release(s, false);
      throw new SourceException.ReplicaChangedException(
          uri,
          "the file changed: size "
              + p.size()
              + " -> "
              + s.validators.size()
              + ", modified "
              + p.lastModified()
              + " -> "
              + s.validators.lastModified());
    }
    if (offset + length > s.validators.size()) {
      release(s, true);
      throw new SourceException.BadRangeException(
          uri,
          "range "
              + offset
              + "+"
              + length
              + " is past the end of the file ("
              + s.validators.size()
              + ")");
    }
    return new RangeBody(uri, s, this::release, offset, length, options.stallTimeout());
  }

  /**
   * The checksum the server has for the file (kXR_query kXR_Qcksum), in the algorithm it chooses
   * when {@code algorithm} is null, else in that one (asked with {@code ?cks.type=}).
   *
   * @return the checksum, or empty if the server computes none (or none in that algorithm)
   * @throws SourceException if the server cannot be reached or answers wrongly
   */
  public Optional<Checksum> checksum(String algorithm) throws IOException {
    Session s = take();
    boolean ok = false;
    try {
      Connection.Call sum = checksumCall(s.connection.target.pathWithCgi(), algorithm);
      s.connection.callAll(sum);
      ok = true; // an answer, even an error, leaves the connection usable
      Optional<String> answer = checksumText(sum);
      return answer.isEmpty() ? Optional.empty() : parseChecksum(s.connection, answer.get());
    } finally {
      release(s, ok);
    }
  }

  /**
   * The checksum query (kXR_query kXR_Qcksum) of a path, in the algorithm the server chooses when
   * {@code algorithm} is null, else in that one (asked with {@code ?cks.type=}); on its own stream
   * id, so that it can go with kXR_open.
   */
  static Connection.Call checksumCall(String pathWithCgi, String algorithm) {
    String path = pathWithCgi;
    if (algorithm != null) {
      String name = algorithm.toLowerCase(Locale.ROOT).replace("-", "");
      path += (path.contains("?") ? "&" : "?") + "cks.type=" + name;
    }
    byte[] p = Frame.params().putShort((short) Xrd.QUERY_CHECKSUM).array();
    return new Connection.Call(Connection.STREAM + 1, Xrd.QUERY, p, Frame.text(path));
  }

  /**
   * The answered checksum query's text; empty when the server has none (or none in that algorithm)
   * or redirects (the checksum is elsewhere; not followed).
   *
   * @throws Connection.Refused for other refusals
   */
  private static Optional<String> checksumText(Connection.Call sum) throws IOException {
    if (sum.refused != null) {
      int errnum = sum.refused.errnum;
      if (errnum == Xrd.ERR_UNSUPPORTED || errnum == Xrd.ERR_CHECKSUM || errnum == Xrd.ERR_SERVER) {
        return Optional.empty();
      }
      throw sum.refused;
    }
    Response r = sum.answer;
    return r.status() == Xrd.OK ? Optional.of(Frame.text(r.body(), 0)) : Optional.empty();
  }

  /**
   * "adler32 0a1b2c3d" -> the checksum; empty for an algorithm braid cannot compute (crc32, ...).
   */
  static Optional<Checksum> parseChecksum(Connection c, String answer) throws SourceException {
    String[] f = answer.trim().split("\\s+");
    if (f.length != 2) {
      throw c.protocolError("unusable checksum answer '" + answer + "'");
    }
    try {
      Checksum.normalise(f[0]);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Checksum(f[0], f[1]));
    } catch (IllegalArgumentException e) {
      throw c.protocolError("unusable checksum answer '" + answer + "': " + e.getMessage());
    }
  }

  private Session take() throws IOException {
    Session s = poll();
    return s != null ? s : Session.open(uri, target, options, tls);
  }

  private Session poll() {
    synchronized (idle) {
      return idle.poll();
    }
  }

  private void release(Session s, boolean reusable) {
    if (reusable) {
      synchronized (idle) {
        idle.push(s);
      }
    } else {
      s.connection.close();
    }
  }

  @Override
  public void close() {
    Session[] all;
    synchronized (idle) {
      all = idle.toArray(new Session[0]);
      idle.clear();
    }
    for (Session s : all) {
      s.close();
    }
  }
}
