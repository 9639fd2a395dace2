package org.braid.coalloc;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A logged-in FTP control connection of a GridFTP source: commands sent and replies read
 * (multi-line replies folded into one text), and the MODE E data connections once switched to
 * extended block mode. Not thread-safe: a source lends it to one retrieve at a time.
 */
final class FtpSession {
  /** One reply: code and text (the last line's text for multi-line replies). */
  record Reply(int code, String text) {
    @Override
    public String toString() {
      return code + " " + text;
    }
  }

  private final URI uri;
  final Socket sock;
  final BufferedReader in;
  final OutputStream out;

  /** Its MODE E data connections, once switched to extended block mode. */
  ModeEChannels modeE;

  /** Whether the greeting and the login's replies are still to be read (see {@link #open}). */
  private boolean loginPending;

  FtpSession(URI uri, Socket sock) throws IOException {
    this.uri = uri;
    this.sock = sock;
    this.in =
        new BufferedReader(new InputStreamReader(sock.getInputStream(), StandardCharsets.UTF_8));
    this.out = sock.getOutputStream();
  }

  /** Commands queued by {@link #send} and not written yet. */
  private final ByteArrayOutputStream queued = new ByteArrayOutputStream();

  /** Sends a command (and any queued before it) and reads its reply. */
  Reply command(String c) throws IOException {
    send(c);
    flush();
    return read();
  }

  /**
   * Queues a command without waiting for its reply: commands queued together go out in one write at
   * {@link #flush} (FTP servers read their control connection in order), and the caller reads the
   * replies, one per command, in the same order. A batch costs one round trip, not one each.
   */
  void send(String c) {
    queued.writeBytes((c + "\r\n").getBytes(StandardCharsets.UTF_8));
  }

  /** Writes the queued commands. */
  void flush() throws IOException {
    if (queued.size() > 0) {
      queued.writeTo(out);
      queued.reset();
    }
    out.flush();
  }

  /**
   * Connects and queues the anonymous login ({@code USER}, {@code PASS}, {@code TYPE I}) without
   * waiting for the greeting: the caller queues its own commands behind it, so that a new session
   * costs the connect and one round trip. The first {@link #read} checks the greeting and the
   * login.
   *
   * @throws SourceException if the connection fails
   */
  static FtpSession open(URI uri, SourceOptions options) throws IOException {
    int port =
        uri.getPort() > 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("ftp") ? 21 : 2811;
    Socket sock = new Socket();
    try {
      sock.connect(
          new InetSocketAddress(uri.getHost(), port), (int) options.connectTimeout().toMillis());
      sock.setSoTimeout((int) options.stallTimeout().toMillis());
      FtpSession s = new FtpSession(uri, sock);
      s.send("USER anonymous");
      s.send("PASS braid@");
      s.send("TYPE I");
      s.loginPending = true;
      return s;
    } catch (IOException e) {
      sock.close();
      throw new SourceException.ConnectionException(
          uri, "connect failed: " + HttpRangeSource.describe(e), e);
    }
  }

  /** Reads the greeting and the replies of the queued login. */
  private void confirmLogin() throws IOException {
    loginPending = false;
    Reply hello = read();
    if (hello.code() != 220) {
      throw new SourceException(uri, "connection refused: " + hello, retryable(hello), null);
    }
    Reply user = read();
    Reply pass = read(); // when USER needs no password, PASS is answered "out of sequence"
    Reply ok = user.code() == 331 ? pass : user;
    if (ok.code() != 230) {
      throw new SourceException(
          uri,
          "anonymous login refused (" + ok + "); braid speaks GridFTP without GSI only",
          false,
          null);
    }
    Reply type = read();
    if (type.code() != 200) {
      throw new SourceException(uri, "TYPE I refused: " + type, retryable(type), null);
    }
  }

  static boolean retryable(Reply r) {
    return r.code() >= 400 && r.code() < 500;
  }

  /** Reads the next reply; the first read of a new session checks its greeting and login first. */
  Reply read() throws IOException {
    if (loginPending) {
      confirmLogin();
    }
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
