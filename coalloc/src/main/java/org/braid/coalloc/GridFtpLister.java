package org.braid.coalloc;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lists a directory tree on a GridFTP (or FTP) server with {@code MLSD} (RFC 3659), one directory
 * per command over a passive data connection, on one anonymous control connection kept for the
 * whole walk (as {@link GridFtpRangeSource} logs in). Entries of type {@code file} and {@code dir}
 * count; {@code cdir} and {@code pdir} are skipped; links and other types are refused. Not
 * thread-safe.
 */
final class GridFtpLister extends TreeLister {
  private static final Pattern PASV =
      Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

  private final SourceOptions options;
  private final String path;
  private Socket control;
  private InputStream in;
  private OutputStream out;

  /**
   * A lister for a {@code gsiftp://} or {@code ftp://} directory URL. Touches nothing on the
   * network.
   *
   * @throws IllegalArgumentException for another scheme, no host, or a path with control characters
   */
  GridFtpLister(URI root, SourceOptions options, ListLimits limits) {
    super(root, limits, Ticker.system());
    String s = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
    if (!s.equals("gsiftp") && !s.equals("ftp")) {
      throw new IllegalArgumentException("not a gsiftp or ftp URL: " + root);
    }
    if (root.getHost() == null) {
      throw new IllegalArgumentException("URL has no host: " + root);
    }
    String p = URLDecoder.decode(root.getRawPath().replace("+", "%2B"), StandardCharsets.UTF_8);
    if (p.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new IllegalArgumentException("control character in the path of " + root);
    }
    this.options = options;
    this.path = p.endsWith("/") ? p : p + "/";
  }

  @Override
  List<Entry> children(String dir, int room) throws IOException {
    try {
      if (control == null) {
        login();
      }
      return mlsd(path + dir);
    } catch (SocketTimeoutException e) {
      closeQuietly();
      throw new SourceException.StalledException(
          root, "no answer within " + options.stallTimeout().toSeconds() + " s", e);
    } catch (SourceException e) {
      throw e;
    } catch (IOException e) {
      closeQuietly();
      throw new SourceException.ConnectionException(
          root, "listing failed: " + HttpRangeSource.describe(e), e);
    }
  }

  private List<Entry> mlsd(String dir) throws IOException {
    String pasv = command("PASV");
    Matcher m = pasv.startsWith("227") ? PASV.matcher(pasv) : null;
    if (m == null || !m.find()) {
      throw refused("PASV", pasv);
    }
    String host = m.group(1) + "." + m.group(2) + "." + m.group(3) + "." + m.group(4);
    int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
    byte[] listing;
    try (Socket data = new Socket()) {
      data.connect(new InetSocketAddress(host, port), (int) options.connectTimeout().toMillis());
      data.setSoTimeout((int) Math.min(options.stallTimeout().toMillis(), remainingMillis()));
      String start = command("MLSD " + dir);
      if (!start.startsWith("150") && !start.startsWith("125")) {
        throw refused("MLSD " + DatasetNames.shown(dir), start);
      }
      try (InputStream d = bounded(data.getInputStream(), root, "MLSD answer")) {
        listing = d.readAllBytes();
      }
    }
    String done = reply();
    if (!done.startsWith("226") && !done.startsWith("250")) {
      throw refused("MLSD " + DatasetNames.shown(dir), done);
    }
    return parse(new String(listing, StandardCharsets.UTF_8));
  }

  /** The entries of one MLSD answer (RFC 3659 facts, then a space, then the name). */
  static List<Entry> parse(String listing) {
    List<Entry> out = new ArrayList<>();
    for (String line : listing.split("\r?\n")) {
      if (line.isEmpty()) {
        continue;
      }
      int sp = line.indexOf(' ');
      if (sp < 0) {
        continue;
      }
      String name = line.substring(sp + 1);
      String type = "";
      long size = -1;
      for (String fact : line.substring(0, sp).split(";")) {
        int eq = fact.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String k = fact.substring(0, eq).toLowerCase(Locale.ROOT);
        String v = fact.substring(eq + 1);
        if (k.equals("type")) {
          type = v.toLowerCase(Locale.ROOT);
        } else if (k.equals("size")) {
          try {
            size = Long.parseLong(v);
          } catch (NumberFormatException e) {
            size = -1;
          }
        }
      }
      switch (type) {
        case "cdir", "pdir" -> {}
        case "file" -> out.add(new Entry(name, Kind.FILE, size, null));
        case "dir" -> out.add(new Entry(name, Kind.DIRECTORY, -1, null));
        default ->
            out.add(
                new Entry(
                    name,
                    Kind.OTHER,
                    -1,
                    type.contains("slink")
                        ? "symbolic link, not followed"
                        : "'" + type + "' entry, not a regular file"));
      }
    }
    return out;
  }

  private void login() throws IOException {
    int port =
        root.getPort() > 0 ? root.getPort() : root.getScheme().equalsIgnoreCase("ftp") ? 21 : 2811;
    Socket s = new Socket();
    control = s;
    s.connect(
        new InetSocketAddress(root.getHost(), port), (int) options.connectTimeout().toMillis());
    s.setSoTimeout((int) options.stallTimeout().toMillis());
    in = new BufferedInputStream(s.getInputStream());
    out = s.getOutputStream();
    String hello = reply();
    if (!hello.startsWith("220")) {
      throw refused("connection", hello);
    }
    String user = command("USER anonymous");
    if (user.startsWith("331")) {
      user = command("PASS braid@");
    }
    if (!user.startsWith("230")) {
      throw new SourceException(
          root,
          "anonymous login refused (" + user + "); braid speaks GridFTP without GSI only",
          false,
          null);
    }
    String type = command("TYPE I");
    if (!type.startsWith("200")) {
      throw refused("TYPE I", type);
    }
  }

  private String command(String c) throws IOException {
    out.write((c + "\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    return reply();
  }

  /** One reply, multi-line replies joined; bounded in length. */
  private String reply() throws IOException {
    String line = readLine();
    if (line == null || line.length() < 3) {
      throw new SourceException.ConnectionException(root, "control connection closed", null);
    }
    StringBuilder text = new StringBuilder(line);
    if (line.length() > 3 && line.charAt(3) == '-') {
      String end = line.substring(0, 3) + " ";
      int lines = 0;
      do {
        line = readLine();
        if (line == null || ++lines > 1000) {
          throw new SourceException.ConnectionException(
              root, "control connection closed or reply too long", null);
        }
        if (text.length() < 4096) {
          text.append(' ').append(line.strip());
        }
      } while (!line.startsWith(end));
    }
    return text.toString();
  }

  /** A line of the control connection, at most 8 KiB, without its CR LF; null at the end. */
  private String readLine() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      if (b.size() >= 8192) {
        throw new SourceException.ConnectionException(root, "control reply line too long", null);
      }
      b.write(c);
    }
    if (c < 0 && b.size() == 0) {
      return null;
    }
    String line = b.toString(StandardCharsets.UTF_8);
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  private SourceException refused(String what, String reply) {
    boolean retryable = reply.startsWith("4");
    String shown = reply.length() > 300 ? reply.substring(0, 300) + "..." : reply;
    return new SourceException(root, what + " refused: " + shown, retryable, null);
  }

  private void closeQuietly() {
    if (control != null) {
      try {
        control.close();
      } catch (IOException e) {
        // dropping it anyway
      }
      control = null;
    }
  }

  @Override
  public void close() {
    if (control != null) {
      try {
        command("QUIT");
      } catch (IOException e) {
        // closing anyway
      }
    }
    closeQuietly();
  }
}
