package org.braid.provider.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.braid.infoprovider.store.Point;

/**
 * Network probe towards one peer, like the NWS probes of paper 003 (section 3.3.1): the TCP connect
 * time to the URL's host and port, and a timed GET of the first 64 KiB of the URL ({@code Range:
 * bytes=0-65535}). Series: {@code network/PEER/connect_seconds} and {@code network/PEER/bandwidth}
 * (bytes per second of the range GET, from sending the request to the last byte). Plain HTTP only.
 * Thread-safe.
 */
public final class NetworkProbe implements Probe {

  /** Bytes asked for by the range GET: 64 KiB. */
  public static final int PROBE_BYTES = 65_536;

  private final String peer;
  private final URI url;
  private final Duration timeout;
  private final InstantSource clock;
  private final LongSupplier nanoTime;

  /**
   * Creates the probe.
   *
   * @param peer the peer's name in the statistics (its address as the logs show it)
   * @param url an http:// URL of a file of at least 64 KiB on the peer
   * @param timeout connect and read timeout
   * @param clock stamps the points
   * @param nanoTime measures durations (System::nanoTime)
   * @throws IllegalArgumentException if the URL is not http:// with a host
   */
  public NetworkProbe(
      String peer, URI url, Duration timeout, InstantSource clock, LongSupplier nanoTime) {
    this.peer = Objects.requireNonNull(peer, "peer");
    this.url = Objects.requireNonNull(url, "url");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    if (!"http".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
      throw new IllegalArgumentException(
          "network probe URL must be http://host[:port]/path: " + url);
    }
  }

  @Override
  public String name() {
    return "network " + peer;
  }

  /** The series name of a peer's probe bandwidth. */
  public static String bandwidthSeries(String peer) {
    return "network/" + peer + "/bandwidth";
  }

  @Override
  public Map<String, Point> measure() throws IOException {
    Instant at = clock.instant();
    int port = url.getPort() < 0 ? 80 : url.getPort();
    int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    if (url.getRawQuery() != null) {
      path += "?" + url.getRawQuery();
    }
    try (Socket s = new Socket()) {
      long t0 = nanoTime.getAsLong();
      s.connect(new InetSocketAddress(url.getHost(), port), timeoutMs);
      long t1 = nanoTime.getAsLong();
      s.setSoTimeout(timeoutMs);
      OutputStream out = s.getOutputStream();
      String req =
          "GET "
              + path
              + " HTTP/1.1\r\nHost: "
              + url.getHost()
              + (url.getPort() < 0 ? "" : ":" + port)
              + "\r\nRange: bytes=0-"
              + (PROBE_BYTES - 1)
              + "\r\nUser-Agent: braid-provider-probe\r\n"
              + "Connection: close\r\n\r\n";
      long t2 = nanoTime.getAsLong();
      out.write(req.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long body = readResponse(s.getInputStream());
      long t3 = nanoTime.getAsLong();
      Map<String, Point> m = new LinkedHashMap<>();
      m.put("network/" + peer + "/connect_seconds", new Point(at, (t1 - t0) / 1e9));
      double secs = Math.max(t3 - t2, 1_000) / 1e9;
      m.put(bandwidthSeries(peer), new Point(at, body / secs));
      return m;
    }
  }

  /** Reads the status line, headers and body; returns the body bytes. */
  private long readResponse(InputStream in) throws IOException {
    byte[] head = new byte[16_384];
    int n = 0;
    int end = -1;
    while (end < 0) {
      int b = in.read();
      if (b < 0) {
        throw new IOException(
            "network probe " + url + ": connection closed before the headers ended");
      }
      if (n == head.length) {
        throw new IOException("network probe " + url + ": response headers over 16 KiB");
      }
      head[n++] = (byte) b;
      if (n >= 4
          && head[n - 4] == '\r'
          && head[n - 3] == '\n'
          && head[n - 2] == '\r'
          && head[n - 1] == '\n') {
        end = n;
      }
    }
    String headers = new String(head, 0, end, StandardCharsets.ISO_8859_1);
    String status = headers.length() >= 12 ? headers.substring(9, 12) : "";
    if (!status.equals("206") && !status.equals("200")) {
      throw new IOException(
          "network probe " + url + ": HTTP " + headers.lines().findFirst().orElse(""));
    }
    long body = 0;
    byte[] buf = new byte[16_384];
    for (int r = in.read(buf); r >= 0; r = in.read(buf)) {
      body += r;
      if (body >= PROBE_BYTES) {
        break; // a 200 answer sends the whole file: 64 KiB is enough
      }
    }
    if (body == 0) {
      throw new IOException("network probe " + url + ": empty body");
    }
    String lower = headers.toLowerCase(Locale.ROOT);
    if (lower.contains("transfer-encoding: chunked")) {
      throw new IOException("network probe " + url + ": chunked answers are not supported");
    }
    return Math.min(body, PROBE_BYTES);
  }
}
