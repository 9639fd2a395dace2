package org.braid.coalloc;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A raw-socket HTTP/1.1 server on 127.0.0.1 for tests of hostile servers: every request is handed
 * to a {@link Handler} that writes whatever bytes it likes (a trickled status line, a huge
 * Content-Length, endless headers, a body that never ends). Keep-alive: the next request on a
 * connection is read after the handler returns, unless it closed the connection. Closing the server
 * closes every connection. Public so that the command line's tests (through this module's test jar)
 * can use it too. Thread-safe.
 */
public final class HostileHttpServer implements Closeable {
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");

  /** One request: method, target and headers (names in lower case). */
  public record Request(String method, String target, Map<String, String> headers) {
    /** The requested range {@code {first, last}}, or null without a {@code bytes=a-b} Range. */
    public long[] range() {
      String r = headers.get("range");
      Matcher m = r == null ? null : RANGE.matcher(r.trim());
      return m == null || !m.matches()
          ? null
          : new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /**
     * Whether this is the downloader's probe: {@code Range: bytes=0-0}, or a first data request
     * with the probe folded into it (it asks for the digests: {@code Want-Repr-Digest}).
     */
    public boolean isProbe() {
      long[] r = range();
      return r != null && (r[0] == 0 && r[1] == 0 || headers.containsKey("want-repr-digest"));
    }
  }

  /** Answers one request; throw or call {@link Exchange#close()} to end the connection. */
  @FunctionalInterface
  public interface Handler {
    void handle(Request request, Exchange exchange) throws Exception;
  }

  /** The connection a request came on, with helpers to answer well or badly. */
  public final class Exchange {
    private final Socket socket;
    private final OutputStream out;

    Exchange(Socket socket) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
    }

    /** Writes the bytes at once. */
    public void write(byte[] b) throws IOException {
      out.write(b);
      out.flush();
      written.addAndGet(b.length);
    }

    /** Writes the text (ISO-8859-1) at once. */
    public void write(String s) throws IOException {
      write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Writes the bytes one at a time with a pause after each, until done or closed. */
    public void trickle(byte[] b, Duration pause) throws IOException, InterruptedException {
      for (byte x : b) {
        out.write(x);
        out.flush();
        written.incrementAndGet();
        Thread.sleep(pause.toMillis());
      }
    }

    /** Writes the text one byte at a time with a pause after each. */
    public void trickle(String s, Duration pause) throws IOException, InterruptedException {
      trickle(s.getBytes(StandardCharsets.ISO_8859_1), pause);
    }

    /** Writes {@code n} bytes of zeros as fast as the client takes them. */
    public void flood(long n) throws IOException {
      byte[] b = new byte[64 * 1024];
      for (long left = n; left > 0; left -= b.length) {
        int k = (int) Math.min(b.length, left);
        out.write(b, 0, k);
        written.addAndGet(k);
      }
      out.flush();
    }

    /**
     * Answers like a well-behaved server of {@code data}: 206 with the range asked for, else 200
     * with everything; {@code extraHeaders} (each ending in CRLF) are added.
     */
    public void serve(Request r, byte[] data, String extraHeaders) throws IOException {
      long[] range = r.range();
      String etag = "ETag: \"v1\"\r\n";
      if (range == null) {
        write(
            "HTTP/1.1 200 OK\r\nContent-Length: "
                + data.length
                + "\r\n"
                + etag
                + extraHeaders
                + "\r\n");
        write(data);
        return;
      }
      if (range[0] >= data.length) {
        write(
            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */"
                + data.length
                + "\r\nContent-Length: 0\r\n"
                + etag
                + extraHeaders
                + "\r\n");
        return;
      }
      int first = (int) range[0];
      int last = (int) Math.min(range[1], data.length - 1);
      write(
          "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes "
              + first
              + "-"
              + last
              + "/"
              + data.length
              + "\r\nContent-Length: "
              + (last - first + 1)
              + "\r\n"
              + etag
              + extraHeaders
              + "\r\n");
      byte[] part = new byte[last - first + 1];
      System.arraycopy(data, first, part, 0, part.length);
      write(part);
    }

    /** Closes the connection. */
    public void close() throws IOException {
      socket.close();
    }
  }

  private final ServerSocket server;
  private final Handler handler;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong written = new AtomicLong();
  private volatile boolean closed;

  private HostileHttpServer(Handler handler) throws IOException {
    this.handler = handler;
    this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "hostile-" + server.getLocalPort());
    t.setDaemon(true);
    t.start();
  }

  /** Starts a server on 127.0.0.1 that answers every request with the handler. */
  public static HostileHttpServer start(Handler handler) throws IOException {
    return new HostileHttpServer(handler);
  }

  /** {@code http://127.0.0.1:PORT/NAME}. */
  public URI uri(String name) {
    return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/" + name);
  }

  /** Requests received so far. */
  public int requests() {
    return requests.get();
  }

  /** Connections accepted so far. */
  public int connections() {
    return connections.get();
  }

  /** Bytes the handlers wrote so far (what the client's socket took). */
  public long written() {
    return written.get();
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  private void accept() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        return;
      }
      connections.incrementAndGet();
      sockets.add(s);
      Thread t = new Thread(() -> serve(s), "hostile-conn-" + s.getPort());
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      Exchange x = new Exchange(s);
      while (!closed && !s.isClosed()) {
        Request r = read(in);
        if (r == null) {
          return;
        }
        requests.incrementAndGet();
        handler.handle(r, x);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the client went away or the handler ended the connection
    } finally {
      sockets.remove(s);
    }
  }

  private static Request read(InputStream in) throws IOException {
    String line = line(in);
    if (line == null || line.isEmpty()) {
      return null;
    }
    String[] parts = line.split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
      int c = h.indexOf(':');
      if (c > 0) {
        headers.put(h.substring(0, c).trim().toLowerCase(Locale.ROOT), h.substring(c + 1).trim());
      }
    }
    return new Request(parts[0], parts.length > 1 ? parts[1] : "/", headers);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
      }
      if (c != '\r' && b.size() < 16384) {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }
}
