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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A minimal HTTP/1.1 server on 127.0.0.1 for pipelining tests: answers range requests over a byte
 * array in order on each connection, at a limited rate, and counts connections, requests, and
 * requests that were already waiting when the answer before ended (pipelined). {@code headers}
 * gives extra header lines (each ending in CRLF) by request number, to misbehave.
 */
final class PipeliningRangeServer implements Closeable {
  private static final Pattern RANGE = Pattern.compile("(?i)range:\\s*bytes=(\\d+)-(\\d+)");

  private final byte[] data;
  private volatile double rate;
  private volatile long delayMillis;
  private final IntFunction<String> headers;
  private final ServerSocket server;
  final AtomicInteger connections = new AtomicInteger();
  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger waiting = new AtomicInteger();

  PipeliningRangeServer(byte[] data, double rate, IntFunction<String> headers) throws IOException {
    this.data = data;
    this.rate = rate;
    this.headers = headers;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "pipelining-server");
    t.setDaemon(true);
    t.start();
  }

  /** Waits this long before each answer from now on (a distant server's round trip). */
  void delay(long millis) {
    this.delayMillis = millis;
  }

  /** Changes the rate of every connection from now on (bytes per second, 0: unlimited). */
  void rate(double bytesPerSecond) {
    this.rate = bytesPerSecond;
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/data.bin");
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        connections.incrementAndGet();
        Thread t = new Thread(() -> serve(s), "pipelining-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s;
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream()) {
      while (true) {
        String range = null;
        String line = line(in);
        if (line == null) {
          return;
        }
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
          Matcher m = RANGE.matcher(h);
          if (m.matches()) {
            range = h;
          }
        }
        int n = requests.incrementAndGet();
        Matcher m = RANGE.matcher(range == null ? "" : range);
        if (!m.matches()) {
          out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes());
          continue;
        }
        int from = Integer.parseInt(m.group(1));
        int to = Math.min(Integer.parseInt(m.group(2)), data.length - 1);
        String extra = headers.apply(n);
        String head =
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes "
                + from
                + "-"
                + to
                + "/"
                + data.length
                + "\r\nContent-Length: "
                + (to - from + 1)
                + "\r\nETag: \"v1\"\r\n"
                + (extra == null ? "" : extra)
                + "\r\n";
        if (delayMillis > 0) {
          out.flush();
          Thread.sleep(delayMillis);
        }
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        for (int p = from; p <= to; p += 16384) {
          int len = Math.min(16384, to + 1 - p);
          out.write(data, p, len);
          if (rate > 0) {
            Thread.sleep((long) (len * 1000 / rate));
          }
        }
        out.flush();
        if (in.available() > 0) {
          waiting.incrementAndGet();
        }
        if (extra != null && extra.toLowerCase().contains("connection: close")) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        return null;
      }
      b.write(c);
    }
    String s = b.toString(StandardCharsets.ISO_8859_1);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
