package org.braid.provider.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.bench.GridFtpParseBenchmark;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.MalformedLineException;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.stats.StatsAccumulator;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.provider.publish.HttpLimits;
import org.braid.provider.publish.ProviderHttpServer;
import org.braid.provider.publish.SeriesSource;
import org.braid.provider.publish.Snapshot;

/**
 * {@code GET /v1/stats} under concurrent clients on loopback, a bounded loop: CLIENTS threads
 * (default 100), each on its own keep-alive connection, send REQUESTS requests (default 200) and
 * time each answer. Prints answered/failed counts, throughput and latency percentiles.
 *
 * <p>Usage: {@code java -cp ... org.braid.infoprovider.bench.StatsLoadHarness [CLIENTS] [REQUESTS]}
 */
public final class StatsLoadHarness {

  private StatsLoadHarness() {}

  public static void main(String[] args) throws Exception {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Snapshot snap = snapshot();
    SeriesSource none =
        new SeriesSource() {
          @Override
          public List<String> names() {
            return List.of();
          }

          @Override
          public List<Point> points(String name) {
            return List.of();
          }
        };
    try (ProviderHttpServer server =
        ProviderHttpServer.start(
            InetAddress.getLoopbackAddress(), 0, () -> snap, none, HttpLimits.DEFAULT)) {
      // Warm-up: one client, 500 requests.
      run(server.port(), 1, 500);
      long[] lat = new long[clients * requests];
      AtomicLong failed = new AtomicLong();
      long t0 = System.nanoTime();
      List<Thread> threads = new ArrayList<>();
      CountDownLatch go = new CountDownLatch(1);
      for (int c = 0; c < clients; c++) {
        int base = c * requests;
        Thread t =
            new Thread(
                () -> {
                  try {
                    go.await();
                    client(server.port(), requests, lat, base, failed);
                  } catch (Exception e) {
                    failed.addAndGet(requests);
                  }
                });
        threads.add(t);
        t.start();
      }
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      long[] ok = Arrays.stream(lat).filter(x -> x > 0).sorted().toArray();
      System.out.printf(
          Locale.ROOT,
          "clients=%d requests/client=%d answered=%d failed=%d stats-groups=%d body=%d bytes%n"
              + "throughput=%.0f req/s  p50=%.2f ms  p90=%.2f ms  p99=%.2f ms  max=%.2f ms%n",
          clients,
          requests,
          ok.length,
          failed.get(),
          snap.stats().size(),
          bodySize(server.port()),
          ok.length / secs,
          pct(ok, 50),
          pct(ok, 90),
          pct(ok, 99),
          ok[ok.length - 1] / 1e6);
    }
  }

  private static double pct(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, i)] / 1e6;
  }

  private static void run(int port, int clients, int requests) throws IOException {
    client(port, requests, new long[requests], 0, new AtomicLong());
  }

  /** One keep-alive connection sending requests one after the other. */
  private static void client(int port, int n, long[] lat, int base, AtomicLong failed)
      throws IOException {
    byte[] req =
        "GET /v1/stats HTTP/1.1\r\nHost: bench\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      InputStream in = new java.io.BufferedInputStream(s.getInputStream(), 65_536);
      for (int i = 0; i < n; i++) {
        long t = System.nanoTime();
        out.write(req);
        out.flush();
        int status = readResponse(in);
        long dt = System.nanoTime() - t;
        if (status == 200) {
          lat[base + i] = Math.max(1, dt);
        } else {
          failed.incrementAndGet();
        }
      }
    }
  }

  /** Reads one response with a Content-Length body; returns the status. */
  private static int readResponse(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      head.append((char) c);
      if (head.length() >= 4
          && head.charAt(head.length() - 1) == '\n'
          && head.substring(head.length() - 4).equals("\r\n\r\n")) {
        break;
      }
    }
    String h = head.toString();
    int status = Integer.parseInt(h.substring(9, 12));
    int cl = h.toLowerCase(Locale.ROOT).indexOf("content-length:");
    int len = Integer.parseInt(h.substring(cl + 15, h.indexOf('\r', cl)).trim());
    in.readNBytes(len);
    return status;
  }

  private static int bodySize(int port) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.getOutputStream()
          .write(
              "GET /v1/stats HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      return s.getInputStream().readAllBytes().length;
    }
  }

  /** 20 peers, reads and writes over all size classes, 2000 transfers, with forecasts. */
  static Snapshot snapshot() throws MalformedLineException {
    StatsAccumulator acc = new StatsAccumulator();
    for (int k = 0; k < 2000; k++) {
      acc.add(LogFormat.GRIDFTP.parser().parse(GridFtpParseBenchmark.line(k)));
    }
    return new Snapshot(
        Instant.now(),
        "gridftp.example.org",
        acc.result(ForecastInputs.univariate(TestLines.NOW)).stream()
            .map(s -> new ScopedStats(Endpoint.parse("gsiftp://gridftp.example.org:2811"), s))
            .toList(),
        Map.of(),
        Map.of(),
        Map.of(),
        Map.of());
  }
}
