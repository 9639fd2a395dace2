package org.braid.coalloc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
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

  FtpSession(URI uri, Socket sock) throws IOException {
    this.uri = uri;
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
