package org.braid.coalloc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A GridFTP (or plain FTP) replica read with partial retrieves: {@code ERET P offset length} in
 * stream mode (paper 003, section 4.2), falling back to {@code REST} + {@code RETR} when the server
 * does not know ERET. Logs in anonymously ({@code USER anonymous}), so the server must allow it
 * (globus-gridftp-server {@code -aa}); GSI authentication is not implemented. Control connections
 * are kept logged in and reused. Thread-safe.
 */
public final class GridFtpRangeSource implements RangeSource {
  private static final Logger LOG = LoggerFactory.getLogger(GridFtpRangeSource.class);
  private static final Pattern PASV =
      Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

  private final URI uri;
  private final SourceOptions options;
  private final String path;
  private final Deque<FtpSession> idle;
  private final boolean ownsSessions;
  private volatile Validators probed;
  private volatile boolean eretUnsupported;
  private volatile boolean modeEUnsupported;
  private final StreamTuner tuner;
  private final GridFtpModeE.Owner owner =
      new GridFtpModeE.Owner() {
        @Override
        public URI uri() {
          return uri;
        }

        @Override
        public Duration stallTimeout() {
          return options.stallTimeout();
        }

        @Override
        public void release(FtpSession s, boolean reusable) {
          GridFtpRangeSource.this.release(s, reusable);
        }
      };

  /**
   * Creates a source for a {@code gsiftp://} or {@code ftp://} URL.
   *
   * @throws IllegalArgumentException for another scheme or a URL without a host
   */
  public GridFtpRangeSource(URI uri, SourceOptions options) {
    this(uri, options, new ArrayDeque<>(), true);
  }

  /**
   * A source whose idle logged-in sessions live in {@code shared}, the deque of every source of the
   * same server (a dataset job's files, {@link SourcePool}): a session one file leaves is the next
   * file's, with no new login. Closing the source leaves them open; their owner closes them.
   */
  GridFtpRangeSource(URI uri, SourceOptions options, Deque<FtpSession> shared) {
    this(uri, options, shared, false);
  }

  private GridFtpRangeSource(
      URI uri, SourceOptions options, Deque<FtpSession> idle, boolean ownsSessions) {
    this.idle = idle;
    this.ownsSessions = ownsSessions;
    String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!s.equals("gsiftp") && !s.equals("ftp")) {
      throw new IllegalArgumentException("not a gsiftp or ftp URL: " + uri);
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("URL has no host: " + uri);
    }
    this.uri = uri;
    this.options = options;
    this.path = URLDecoder.decode(uri.getRawPath(), StandardCharsets.UTF_8);
    this.tuner = new StreamTuner(options.gridFtpStreams());
  }

  @Override
  public URI uri() {
    return uri;
  }

  /** The stream count chooser of this server. */
  StreamTuner tuner() {
    return tuner;
  }

  @Override
  public Validators probe() throws IOException {
    long t0 = System.nanoTime();
    FtpSession s = take();
    boolean ok = false;
    try {
      // SIZE, MDTM, CKSM and the MODE E set-up behind a new session's login: one batch, one round
      // trip (plus the server's checksum time); the first range then only asks ERET
      s.send("SIZE " + path);
      s.send("MDTM " + path);
      s.send("CKSM adler32 0 -1 " + path);
      boolean modeE = !modeEUnsupported && !eretUnsupported && tuner.streams() > 1;
      if (modeE) {
        GridFtpModeE.queueSetUp(s, tuner.streams(), options.tcpBuffer());
      }
      long sent = System.nanoTime();
      s.flush();
      FtpSession.Reply size = s.read();
      long t1 = System.nanoTime();
      tuner.roundTrip(t1 - sent); // the server answers SIZE at once; CKSM may take long
      if (size.code() != 213) {
        throw fail(size, "SIZE");
      }
      long n;
      try {
        n = Long.parseLong(size.text().trim());
      } catch (NumberFormatException e) {
        throw new SourceException(uri, "unreadable SIZE answer: " + size, false, e);
      }
      FtpSession.Reply mdtm = s.read();
      Validators v = new Validators(n, null, mdtm.code() == 213 ? mdtm.text().trim() : null);
      Checksum sum = checksum(s);
      ok = !s.sock.isClosed(); // else the CKSM answer did not come in time: out of step
      if (sum != null) {
        v = v.withChecksums(List.of(sum));
      }
      if (ok && modeE) {
        ok = confirmSetUp(s);
      }
      probed = v;
      LOG.debug(
          "{}: probe: SIZE answered after {} ms, the rest {} ms later",
          uri,
          (t1 - t0) / 1_000_000,
          (System.nanoTime() - t1) / 1_000_000);
      return v;
    } finally {
      release(s, ok);
    }
  }

  /** Reads the probe's MODE E set-up replies; false if the session is not usable. */
  private boolean confirmSetUp(FtpSession s) throws IOException {
    try {
      GridFtpModeE.confirmSetUp(owner, s, tuner, 0, /* last= */ true);
      return true;
    } catch (GridFtpModeE.Unsupported e) {
      LOG.info("{}: {}; reading in stream mode over one connection", uri, e.getMessage());
      modeEUnsupported = true;
      return false;
    } catch (SourceException e) {
      LOG.info("{}: MODE E set-up failed, retried with the first range: {}", uri, e.getMessage());
      return false;
    }
  }

  /**
   * The file's adler32 as the server computes it (the reply to the queued {@code CKSM adler32 0 -1
   * path}), or null when it cannot tell (refused, another format) or takes longer than half the
   * probe time limit: the server reads the whole file for it, so a huge file is left unchecked
   * rather than unused (the session is then closed, being out of step).
   */
  private Checksum checksum(FtpSession s) throws IOException {
    Duration budget = options.probeTimeout().dividedBy(2);
    int stall = s.sock.getSoTimeout();
    s.sock.setSoTimeout((int) Math.max(1, Math.min(stall, budget.toMillis())));
    FtpSession.Reply r;
    try {
      r = s.read();
    } catch (SocketTimeoutException e) {
      LOG.info(
          "{}: no CKSM answer within {} ms; the file is not checked against it",
          uri,
          budget.toMillis());
      s.close();
      return null;
    }
    s.sock.setSoTimeout(stall);
    if (r.code() != 213) {
      LOG.debug("{}: CKSM refused: {}", uri, r);
      return null;
    }
    try {
      String hex = r.text().trim();
      return new Checksum("adler32", "0".repeat(Math.max(0, 8 - hex.length())) + hex);
    } catch (IllegalArgumentException e) {
      LOG.debug("{}: unusable CKSM answer {}: {}", uri, r, e.getMessage());
      return null;
    }
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
    // one stream is stream mode: the same single TCP connection, but passive (braid connects), so
    // --streams 1 also works where the server cannot connect to braid (NAT, firewalls)
    if (!modeEUnsupported && !eretUnsupported && tuner.streams() > 1) {
      if (length == 0) {
        return Channels.newChannel(new ByteArrayInputStream(new byte[0]));
      }
      try {
        return GridFtpModeE.open(owner, take(), path, offset, length, tuner, options.tcpBuffer());
      } catch (GridFtpModeE.Unsupported e) {
        LOG.info("{}: {}; reading in stream mode over one connection", uri, e.getMessage());
        modeEUnsupported = true;
      }
    }
    FtpSession s = takeStreamMode();
    Socket data = null;
    try {
      FtpSession.Reply pasv = s.command("PASV");
      Matcher m = pasv.code() == 227 ? PASV.matcher(pasv.text()) : null;
      if (m == null || !m.find()) {
        throw fail(pasv, "PASV");
      }
      String host = m.group(1) + "." + m.group(2) + "." + m.group(3) + "." + m.group(4);
      int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
      data = new Socket();
      data.connect(new InetSocketAddress(host, port), (int) options.connectTimeout().toMillis());
      data.setSoTimeout((int) options.stallTimeout().toMillis());
      boolean eret = !eretUnsupported;
      FtpSession.Reply start;
      if (eret) {
        start = s.command("ERET P " + offset + " " + length + " " + path);
        if (start.code() == 500 || start.code() == 502 || start.code() == 504) {
          eretUnsupported = true;
          eret = false;
        }
      } else {
        start = null;
      }
      if (!eret) {
        FtpSession.Reply rest = s.command("REST " + offset);
        if (rest.code() != 350) {
          throw fail(rest, "REST");
        }
        start = s.command("RETR " + path);
      }
      if (start.code() != 150 && start.code() != 125) {
        throw fail(start, eret ? "ERET" : "RETR");
      }
      return new Body(s, data, length, eret, System.nanoTime());
    } catch (IOException | RuntimeException e) {
      if (data != null) {
        data.close();
      }
      release(s, false);
      if (e instanceof SocketTimeoutException) {
        throw new SourceException.StalledException(
            uri, "no answer within " + options.stallTimeout().toSeconds() + " s", e);
      }
      if (e instanceof SourceException || !(e instanceof IOException)) {
        throw e;
      }
      throw new SourceException.ConnectionException(
          uri, "request failed: " + HttpRangeSource.describe((IOException) e), e);
    }
  }

  private SourceException fail(FtpSession.Reply r, String what) {
    boolean retryable = r.code() >= 400 && r.code() < 500;
    return new SourceException(uri, what + " refused: " + r, retryable, null);
  }

  private FtpSession take() throws IOException {
    synchronized (idle) {
      FtpSession s = idle.poll();
      if (s != null) {
        return s;
      }
    }
    return FtpSession.open(uri, options);
  }

  /** A session in stream mode: idle ones switched to MODE E are dropped. */
  private FtpSession takeStreamMode() throws IOException {
    while (true) {
      FtpSession s = take();
      if (s.modeE == null) {
        return s;
      }
      s.close();
    }
  }

  void release(FtpSession s, boolean reusable) {
    if (reusable) {
      synchronized (idle) {
        idle.push(s);
        return;
      }
    }
    s.close();
  }

  @Override
  public void close() {
    if (!ownsSessions) {
      return;
    }
    synchronized (idle) {
      for (FtpSession s : idle) {
        s.close();
      }
      idle.clear();
    }
  }

  /** The data connection of one retrieve: exactly {@code length} bytes, then the 226 reply. */
  private final class Body extends ExactBody {
    private final FtpSession session;
    private final Socket data;
    private final boolean eret;
    private final long startNanos;
    private boolean open = true;

    Body(FtpSession session, Socket data, long length, boolean eret, long startNanos)
        throws IOException {
      super(
          GridFtpRangeSource.this.uri,
          data.getInputStream(),
          length,
          options.stallTimeout(),
          "data",
          "data connection");
      this.session = session;
      this.data = data;
      this.eret = eret;
      this.startNanos = startNanos;
    }

    @Override
    void complete() throws IOException {
      if (eret) {
        finish();
      }
    }

    /** The whole range arrived: the data connection must end and the server report success. */
    private void finish() throws IOException {
      expectEnd();
      data.close();
      FtpSession.Reply done = session.read();
      if (done.code() != 226 && done.code() != 250) {
        throw fail(done, "transfer");
      }
      open = false;
      tuner.record(1, length, System.nanoTime() - startNanos);
      release(session, true);
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
      try {
        data.close();
      } catch (IOException e) {
        // dropping it anyway
      }
      // a RETR read only partly, or a range abandoned early: the session state is unknown
      release(session, false);
    }
  }
}
