package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reads over a link that brings one packet at a time are spaced so that each brings about {@link
 * ReadBatcher#TARGET} bytes; reads that fill the buffer, fast connections and the first read are
 * never held back, and no byte is lost or reordered by the spacing.
 */
class ReadBatcherTest {
  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final int PACKET = 1448;

  /** Feeds drained one-packet reads at {@code bytesPerSecond}; returns the last pause. */
  private static long packets(ReadBatcher b, double bytesPerSecond, int count, long[] clock) {
    long gap = (long) (PACKET * 1e9 / bytesPerSecond);
    long pause = 0;
    for (int i = 0; i < count; i++) {
      clock[0] += gap;
      pause = b.after(PACKET, Fetcher.BUFFER, 100 << 20, clock[0]);
    }
    return pause;
  }

  @Test
  void firstRead_isNeverHeldBack() {
    assertEquals(0, new ReadBatcher().after(PACKET, Fetcher.BUFFER, 100 << 20, 5 * MS));
  }

  @Test
  void onePacketReadsAt10MBps_waitForTheTarget() {
    long pause = packets(new ReadBatcher(), 10e6, 20, new long[] {0});
    // 32 KiB at 10 MB/s: 3.28 ms
    assertEquals(ReadBatcher.TARGET * 1e9 / 10e6, pause, 0.05 * pause);
  }

  @Test
  void slowConnection_waitsAtMostTheLongestPause() {
    assertEquals(ReadBatcher.MAX_PAUSE_NANOS, packets(new ReadBatcher(), 100e3, 20, new long[1]));
  }

  @Test
  void memorySpeed_isNeverHeldBack() {
    ReadBatcher b = new ReadBatcher();
    long t = 0;
    for (int i = 0; i < 20; i++) {
      // 40 KiB of a 64 KiB read every 100 us: 400 MB/s, the socket emptied each time
      t += 100 * US;
      assertEquals(0, b.after(40 << 10, Fetcher.BUFFER, 100 << 20, t));
    }
  }

  @Test
  void fullRead_readsAgainAtOnce_andIsNoRateSample() {
    ReadBatcher b = new ReadBatcher();
    long[] clock = {0};
    long pause = packets(b, 10e6, 20, clock);
    // a full buffer after 6.5 ms (at 10 MB/s): read again at once
    clock[0] += 6554 * US;
    assertEquals(0, b.after(Fetcher.BUFFER, Fetcher.BUFFER, 100 << 20, clock[0]));
    // what that read brings came before the full read: no sample of 145 MB/s from it
    clock[0] += 10 * US;
    assertEquals(pause, b.after(PACKET, Fetcher.BUFFER, 100 << 20, clock[0]), 0.05 * pause);
  }

  @Test
  void endOfRequest_isNotWaitedFor() {
    ReadBatcher b = new ReadBatcher();
    long[] clock = {0};
    packets(b, 10e6, 20, clock);
    clock[0] += 145 * US;
    assertEquals(0, b.after(PACKET, Fetcher.BUFFER, 0, clock[0]));
    // 2000 bytes left at 10 MB/s: 0.2 ms, not worth a sleep
    clock[0] += 145 * US;
    assertEquals(0, b.after(PACKET, Fetcher.BUFFER, 2000, clock[0]));
  }

  @Test
  void gapBetweenRequests_isNoRateSample() {
    ReadBatcher b = new ReadBatcher();
    long[] clock = {0};
    long pause = packets(b, 10e6, 20, clock);
    b.start();
    clock[0] += 1000 * MS;
    assertEquals(pause, b.after(PACKET, Fetcher.BUFFER, 100 << 20, clock[0]), 0.01 * pause);
  }

  /**
   * A fetch thread over a channel whose bytes arrive one packet at a time at 4 MB/s: every byte
   * lands where it belongs, in far fewer reads than packets (16 KiB and more per read on average;
   * about 150 reads of one or a few packets each without the spacing).
   */
  @Test
  void fetcher_readsATricklingChannelInFewReads() throws Exception {
    int size = 1 << 20;
    byte[] data = new byte[size];
    new Random(3).nextBytes(data);
    byte[] out = new byte[size];
    AtomicInteger reads = new AtomicInteger();
    BlockScheduler s = Schedulers.oneReplica(size);
    RangeSource src = new Trickling(data, 4e6, reads);
    Fetcher f = new Fetcher("t", s, (b, pos) -> b.get(out, (int) pos, b.remaining()));
    Thread t = f.start(s.flows().get(0), src);
    t.join(20_000);
    assertTrue(s.complete(), "all bytes delivered");
    assertArrayEquals(data, out);
    assertTrue(
        reads.get() <= size / (16 << 10), reads.get() + " reads of " + size / PACKET + " packets");
  }

  /** A source whose bytes arrive {@link #PACKET} bytes at a time at a fixed rate from open. */
  private record Trickling(byte[] data, double bytesPerSecond, AtomicInteger reads)
      implements RangeSource {
    @Override
    public URI uri() {
      return URI.create("http://m0/f");
    }

    @Override
    public Validators probe() {
      throw new UnsupportedOperationException();
    }

    @Override
    public ReadableByteChannel open(long offset, long length) {
      long start = System.nanoTime();
      return new ReadableByteChannel() {
        long read;

        @Override
        public int read(ByteBuffer dst) throws IOException {
          if (read >= length) {
            return -1;
          }
          reads.incrementAndGet();
          long arrived;
          while (true) {
            long packets = (long) ((System.nanoTime() - start) * bytesPerSecond / 1e9 / PACKET);
            arrived = Math.min(length, packets * PACKET);
            if (arrived > read) {
              break;
            }
            try {
              Thread.sleep(0, 100_000);
            } catch (InterruptedException e) {
              throw new IOException(e);
            }
          }
          int n = (int) Math.min(dst.remaining(), arrived - read);
          dst.put(data, (int) (offset + read), n);
          read += n;
          return n;
        }

        @Override
        public boolean isOpen() {
          return true;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public void close() {}
  }
}
