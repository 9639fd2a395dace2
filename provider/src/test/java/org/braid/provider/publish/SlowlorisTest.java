package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: a slowloris on loopback (more connections than the server's 256 slots, each sending one
 * byte of its request head every second and reconnecting as soon as it is dropped) must leave real
 * requests answered, promptly, during the whole attack. Bounded: 12 s of attack.
 */
class SlowlorisTest {

  static final int ATTACKERS = 300;
  static final long ATTACK_MILLIS = 12_000;

  @Test
  void slowHeads_neverKeepRealRequestsOut() throws Exception {
    Snapshot snap =
        new Snapshot(Instant.now(), "h", List.of(), Map.of(), Map.of(), Map.of(), Map.of());
    ProviderMetrics metrics = new ProviderMetrics(() -> snap);
    try (ProviderHttpServer server =
        ProviderHttpServer.start(
            InetAddress.getLoopbackAddress(),
            0,
            () -> snap,
            new SeriesSource() {
              @Override
              public List<String> names() {
                return List.of();
              }

              @Override
              public List<org.braid.infoprovider.store.Point> points(String name) {
                return List.of();
              }
            },
            HttpLimits.DEFAULT,
            metrics)) {
      int port = server.port();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger reconnects = new AtomicInteger();
      Thread attack = new Thread(() -> attack(port, stop, reconnects), "slowloris");
      attack.setDaemon(true);
      attack.start();
      Thread.sleep(1_500); // the attackers hold every slot by now

      long end = System.nanoTime() + ATTACK_MILLIS * 1_000_000;
      int asked = 0;
      int answered = 0;
      long worstMillis = 0;
      List<String> failures = new ArrayList<>();
      while (System.nanoTime() < end) {
        asked++;
        long t0 = System.nanoTime();
        String status = realRequest(port);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        worstMillis = Math.max(worstMillis, ms);
        if (status.equals("HTTP/1.1 200")) {
          answered++;
        } else if (failures.size() < 5) {
          failures.add(status);
        }
        Thread.sleep(250);
      }
      stop.set(true);
      attack.join(5_000);
      assertEquals(asked, answered, "answered " + answered + " of " + asked + ": " + failures);
      double evicted =
          MetricsText.value(
              metrics.text(), "braid_provider_http_closed_connections_total{reason=\"evicted\"}");
      assertTrue(worstMillis < 2_000, "slowest real request " + worstMillis + " ms");
      assertTrue(asked >= 30, "asked " + asked);
      assertTrue(evicted >= asked, "evicted " + evicted + " slow connections");
    }
  }

  /** One real request on a new connection: its status line, or why there was none. */
  static String realRequest(int port) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(5_000);
      s.getOutputStream()
          .write(
              "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * Keeps {@value #ATTACKERS} connections sending one byte of a never-ending request head per
   * second, replacing each one the server drops.
   */
  static void attack(int port, AtomicBoolean stop, AtomicInteger reconnects) {
    Socket[] socks = new Socket[ATTACKERS];
    try {
      while (!stop.get()) {
        for (int i = 0; i < socks.length && !stop.get(); i++) {
          try {
            if (socks[i] == null || dropped(socks[i])) {
              if (socks[i] != null) {
                socks[i].close();
                reconnects.incrementAndGet();
              }
              socks[i] = new Socket(InetAddress.getLoopbackAddress(), port);
              socks[i].getOutputStream().write("GET / HTTP/1.1\r\nX-Slow: ".getBytes());
            } else {
              OutputStream out = socks[i].getOutputStream();
              out.write('a');
              out.flush();
            }
          } catch (IOException e) {
            socks[i] = null; // dropped while writing: replaced on the next round
          }
        }
        Thread.sleep(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      for (Socket s : socks) {
        try {
          if (s != null) {
            s.close();
          }
        } catch (IOException ignored) {
          // closing the attack's sockets at the end
        }
      }
    }
  }

  /** Whether the server closed the connection (end of stream or reset seen without blocking). */
  static boolean dropped(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      if (in.available() > 0) {
        return true; // the server answered (e.g. 400/408): it will close
      }
      s.setSoTimeout(1);
      return in.read() < 0;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }
}
