package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The default (sequential) fetch loop over real HTTP connections: each flow keeps its own
 * connection, a request cut short keeps it when its rest is small, and a replica whose rate rises
 * gets a new connection in the middle of a block without losing a byte ({@link Renewal}). The
 * sources read through their pooled client ({@link HttpRangeSource#pooled}), whose connection reuse
 * these tests count; near connections keep the same rules ({@link NearHttpTest}).
 */
class SequentialRenewalTest {
  private static byte[] data(int size) {
    byte[] d = new byte[size];
    new Random(17).nextBytes(d);
    return d;
  }

  /** Reads {@code n} bytes of the channel into {@code out} from {@code at}. */
  private static void read(ReadableByteChannel ch, byte[] out, int at, int n) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(out, at, n);
    while (b.hasRemaining()) {
      ch.read(b);
    }
  }

  @Test
  void keyedRequests_reuseTheirOwnConnection_andANewKeyGetsANewOne() throws Exception {
    byte[] d = data(1 << 20);
    byte[] out = new byte[d.length];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 0, n -> null);
        HttpRangeSource src = HttpRangeSource.pooled(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      Renewal.Key a = new Renewal.Key(0, 0);
      Renewal.Key b = new Renewal.Key(1, 0);
      for (int i = 0; i < 4; i++) {
        Renewal.Key k = i % 2 == 0 ? a : b;
        try (ReadableByteChannel ch = src.open(i * 1000L, 1000, k)) {
          read(ch, out, i * 1000, 1000);
        }
      }
      // the probe's connection went to the first key, the second key opened its own
      assertEquals(2, srv.connections.get());
      try (ReadableByteChannel ch = src.open(4000, 1000, new Renewal.Key(0, 1))) {
        read(ch, out, 4000, 1000);
      }
      assertEquals(3, srv.connections.get(), "a new generation gets a new connection");
      assertArrayEquals(Arrays.copyOf(d, 5000), Arrays.copyOf(out, 5000));
    }
  }

  @Test
  void aRequestCutShort_isDrained_whenItsRestIsWithinTheLimit_keepingItsConnection()
      throws Exception {
    byte[] d = data(4 << 20);
    byte[] out = new byte[d.length];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 0, n -> null);
        HttpRangeSource src = HttpRangeSource.pooled(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      Renewal.Key k = new Renewal.Key(0, 0);
      ReadableByteChannel ch = src.open(0, 2 << 20, k);
      read(ch, out, 0, 1 << 20);
      ((KeptConnection) ch).drainUpTo(1 << 20);
      ch.close();
      assertTrue(((KeptConnection) ch).connectionKept());
      try (ReadableByteChannel next = src.open(2 << 20, 1 << 20, k)) {
        read(next, out, 2 << 20, 1 << 20);
      }
      assertEquals(1, srv.connections.get(), "1 MiB left, drained: the connection is kept");
      ch = src.open(0, 2 << 20, k);
      read(ch, out, 0, 1000);
      // the default limit (64 KiB) is far below what is left: the connection goes
      ch.close();
      assertFalse(((KeptConnection) ch).connectionKept(), "its flow counts as cold");
      try (ReadableByteChannel next = src.open(3 << 20, 1 << 20, k)) {
        read(next, out, 3 << 20, 1 << 20);
      }
      assertEquals(2, srv.connections.get());
      assertArrayEquals(
          Arrays.copyOfRange(d, 2 << 20, 4 << 20), Arrays.copyOfRange(out, 2 << 20, 4 << 20));
    }
  }

  @Test
  void aConnectionToDrop_isClosed_evenWhenItsAnswerWasReadToTheEnd() throws Exception {
    byte[] d = data(100_000);
    byte[] out = new byte[d.length];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 0, n -> null);
        HttpRangeSource src = HttpRangeSource.pooled(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      Renewal.Key k = new Renewal.Key(0, 0);
      ReadableByteChannel ch = src.open(0, 50_000, k);
      ((KeptConnection) ch).dropConnection();
      read(ch, out, 0, 50_000);
      ch.close();
      assertFalse(((KeptConnection) ch).connectionKept());
      try (ReadableByteChannel next = src.open(50_000, 50_000, k)) {
        read(next, out, 50_000, 50_000);
      }
      assertEquals(2, srv.connections.get());
      assertArrayEquals(d, out);
    }
  }

  /** Downloads the server's file with the sequential loop, renewing near replicas too. */
  private static int fetchAll(byte[] out, HttpRangeSource src) throws Exception {
    BlockScheduler s = Schedulers.oneReplica(out.length);
    Fetcher fetcher = new Fetcher("t", s, (b, pos) -> b.get(out, (int) pos, b.remaining()));
    fetcher.renewNearReplicas();
    Thread t = fetcher.start(s.flows().get(0), src);
    t.join(30_000);
    assertTrue(s.complete(), "all bytes delivered");
    return fetcher.renewals(s.flows().get(0).replica);
  }

  @Test
  void sequential_renewsItsConnectionMidBlock_whenTheRateRises_withoutLosingAByte()
      throws Exception {
    int size = 12_000_000;
    byte[] d = data(size);
    byte[] out = new byte[size];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 1e6, n -> null);
        HttpRangeSource src = HttpRangeSource.pooled(srv.uri(), SourceOptions.DEFAULT)) {
      srv.delay(20);
      src.probe();
      // the link gets faster and faster after 2 s (as a warm connection's would, if it kept up)
      Thread faster =
          new Thread(
              () -> {
                try {
                  Thread.sleep(2000);
                  for (double r = 1.5e6; r < 20e6; r *= 1.5) {
                    srv.rate(r);
                    Thread.sleep(300);
                  }
                  srv.rate(0);
                } catch (InterruptedException e) {
                  // test over
                }
              });
      faster.setDaemon(true);
      faster.start();
      int renewals = fetchAll(out, src);
      faster.interrupt();
      assertArrayEquals(d, out);
      assertTrue(renewals >= 1, "no renewal");
      // the probe's connection, then one per renewal: blocks in between keep the flow's own
      assertEquals(1 + renewals, srv.connections.get());
    }
  }

  @Test
  void sequential_keepsItsOneConnection_atASteadyRate() throws Exception {
    int size = 6_000_000;
    byte[] d = data(size);
    byte[] out = new byte[size];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 2e6, n -> null);
        HttpRangeSource src = HttpRangeSource.pooled(srv.uri(), SourceOptions.DEFAULT)) {
      srv.delay(20);
      src.probe();
      assertEquals(0, fetchAll(out, src), "no renewal");
      assertArrayEquals(d, out);
      assertEquals(1, srv.connections.get(), "every block on the probe's connection");
    }
  }
}
