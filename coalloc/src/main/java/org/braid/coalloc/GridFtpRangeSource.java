package org.braid.coalloc;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
  private final Deque<Session> idle = new ArrayDeque<>();
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
        public void release(Session s, boolean reusable) {
          GridFtpRangeSource.this.release(s, reusable);
        }
      };

  /**
   * Creates a source for a {@code gsiftp://} or {@code ftp://} URL.
   *
   * @throws IllegalArgumentException for another scheme or a URL without a host
   */
  public GridFtpRangeSource(URI uri, SourceOptions options) {
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
    Session s = take();
    boolean ok = false;
    try {
      Reply size = s.command("SIZE " + path);
      if (size.code != 213) {
        throw fail(size, "SIZE");
      }
      long n;
      try {
        n = Long.parseLong(size.text.trim());
      } catch (NumberFormatException e) {
        throw new SourceException(uri, "unreadable SIZE answer: " + size, false, e);
      }
      Reply mdtm = s.command("MDTM " + path);
      Validators v = new Validators(n, null, mdtm.code == 213 ? mdtm.text.trim() : null);
      ok = true;
      Checksum sum = checksum(s);
      if (sum == null && s.sock.isClosed()) {
        ok = false; // the answer did not come in time: the session is out of step
      }
      if (sum != null) {
        v = v.withChecksums(List.of(sum));
      }
      probed = v;
      return v;
    } finally {
      release(s, ok);
    }
  }

  /**
   * The file's adler32 as the server computes it ({@code CKSM adler32 0 -1 path}), or null when it
   * cannot tell (refused, another format) or takes longer than half the probe time limit: the
   * server reads the whole file for it, so a huge file is left unchecked rather than unused.
   */
  private Checksum checksum(Session s) throws IOException {
    Duration budget = options.probeTimeout().dividedBy(2);
    int stall = s.sock.getSoTimeout();
    s.sock.setSoTimeout((int) Math.max(1, Math.min(stall, budget.toMillis())));
    Reply r;
    try {
      r = s.command("CKSM adler32 0 -1 " + path);
    } catch (SocketTimeoutException e) {
      LOG.info(
          "{}: no CKSM answer within {} ms; the file is not checked against it",
          uri,
          budget.toMillis());
      s.close();
      return null;
    }
    s.sock.setSoTimeout(stall);
    if (r.code != 213) {
      LOG.debug("{}: CKSM refused: {}", uri, r);
      return null;
    }
    try {
      String hex = r.text.trim();
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
    Session s = takeStreamMode();
    Socket data = null;
    try {
      Reply pasv = s.command("PASV");
      Matcher m = pasv.code == 227 ? PASV.matcher(pasv.text) : null;
      if (m == null || !m.find()) {
        throw fail(pasv, "PASV");
      }
      String host = m.group(1) + "." + m.group(2) + "." + m.group(3) + "." + m.group(4);
      int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
      data = new Socket();
      data.connect(new InetSocketAddress(host, port), (int) options.connectTimeout().toMillis());
      data.setSoTimeout((int) options.stallTimeout().toMillis());
      boolean eret = !eretUnsupported;
      Reply start;
      if (eret) {
        start = s.command("ERET P " + offset + " " + length + " " + path);
        if (start.code == 500 || start.code == 502 || start.code == 504) {
          eretUnsupported = true;
          eret = false;
        }
      } else {
        start = null;
      }
      if (!eret) {
        Reply rest = s.command("REST " + offset);
        if (rest.code != 350) {
          throw fail(rest, "REST");
        }
        start = s.command("RETR " + path);
      }
      if (start.code != 150 && start.code != 125) {
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

  private SourceException fail(Reply r, String what) {
    boolean retryable = r.code >= 400 && r.code < 500;
    return new SourceException(uri, what + " refused: " + r, retryable, null);
  }

  private Session take() throws IOException {
    synchronized (idle) {
      Session s = idle.poll();
      if (s != null) {
        return s;
      }
    }
    return login();
  }

  /** A session in stream mode: idle ones switched to MODE E are dropped. */
  private Session takeStreamMode() throws IOException {
    while (true) {
      Session s = take();
      if (s.modeE == null) {
        return s;
      }
      s.close();
    }
  }

  void release(Session s, boolean reusable) {
    if (reusable) {
      synchronized (idle) {
        idle.push(s);
        return;
      }
    }
    s.close();
  }

  private Session login() throws IOException {
    int port =
        uri.getPort() > 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("ftp") ? 21 : 2811;
    Socket sock = new Socket();
    try {
      sock.connect(
          new InetSocketAddress(uri.getHost(), port), (int) options.connectTimeout().toMillis());
      sock.setSoTimeout((int) options.stallTimeout().toMillis());
      Session s = new Session(sock);
      Reply hello = s.read();
      if (hello.code != 220) {
        throw fail(hello, "connection");
      }
      Reply user = s.command("USER anonymous");
      if (user.code == 331) {
        user = s.command("PASS braid@");
      }
      if (user.code != 230) {
        throw new SourceException(
            uri,
            "anonymous login refused (" + user + "); braid speaks GridFTP without GSI only",
            false,
            null);
      }
      Reply type = s.command("TYPE I");
      if (type.code != 200) {
        throw fail(type, "TYPE I");
      }
      return s;
    } catch (SourceException e) {
      sock.close();
      throw e;
    } catch (IOException e) {
      sock.close();
      throw new SourceException.ConnectionException(
          uri, "connect failed: " + HttpRangeSource.describe(e), e);
    }
  }

  @Override
  public void close() {
    synchronized (idle) {
      for (Session s : idle) {
        s.close();
      }
      idle.clear();
    }
  }

  /** One reply: code and text (the last line's text for multi-line replies). */
  record Reply(int code, String text) {
    @Override
    public String toString() {
      return code + " " + text;
    }
  }

  /** A logged-in control connection. */
  final class Session {
    final Socket sock;
    final BufferedReader in;
    final OutputStream out;

    /** Its MODE E data connections, once switched to extended block mode. */
    ModeEChannels modeE;

    Session(Socket sock) throws IOException {
      this.sock = sock;
      this.in =
          new BufferedReader(new InputStreamReader(sock.getInputStream(), StandardCharsets.UTF_8));
      this.out = sock.getOutputStream();
    }

    Reply command(String c) throws IOException {
      out.write((c + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      return read();
    }

    Reply read() throws IOException {
      String line = in.readLine();
      if (line == null || line.length() < 3) {
        throw new SourceException.ConnectionException(uri, "control connection closed", null);
      }
      int code;
      try {
        code = Integer.parseInt(line.substring(0, 3));
      } catch (NumberFormatException e) {
        throw new SourceException(uri, "not an FTP reply: " + line, false, e);
      }
      StringBuilder text = new StringBuilder(line.length() > 4 ? line.substring(4).trim() : "");
      if (line.length() > 3 && line.charAt(3) == '-') {
        String end = line.substring(0, 3) + " ";
        do {
          line = in.readLine();
          if (line == null) {
            throw new SourceException.ConnectionException(uri, "control connection closed", null);
          }
          String t = line.startsWith(end) ? line.substring(4) : line;
          if (!t.isBlank() && !t.trim().equals("End.")) {
            text.append(text.length() == 0 ? "" : " ").append(t.trim());
          }
        } while (!line.startsWith(end));
      }
      return new Reply(code, text.toString());
    }

    void close() {
      if (modeE != null) {
        modeE.close();
      }
      try {
        sock.close();
      } catch (IOException e) {
        // dropping it anyway
      }
    }
  }

  /** The data connection of one retrieve: exactly {@code length} bytes, then the 226 reply. */
  private final class Body extends ExactBody {
    private final Session session;
    private final Socket data;
    private final boolean eret;
    private final long startNanos;
    private boolean open = true;

    Body(Session session, Socket data, long length, boolean eret, long startNanos)
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
      Reply done = session.read();
      if (done.code != 226 && done.code != 250) {
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
