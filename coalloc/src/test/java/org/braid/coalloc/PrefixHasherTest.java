package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole-file digests fed on a thread of their own as the stable prefix grows. */
class PrefixHasherTest {
  private static final long STEP = PrefixHasher.STEP;
  private static final long AHEAD = PrefixHasher.AHEAD;

  @TempDir Path dir;
  static final List<String> ALGOS = List.of("sha-256", "md5", "adler32");

  private PartFile part(byte[] data) throws IOException {
    PartFile p =
        PartFile.open(
            dir.resolve("f"),
            data.length,
            Map.of(URI.create("http://a/f"), new Validators(data.length, null, null)),
            false);
    p.write(ByteBuffer.wrap(data), 0);
    return p;
  }

  private static void waitFor(PrefixHasher h, long hashed) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (h.hashed() < hashed && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }

  @Test
  void growingPrefix_isHashedBeforeFinish_andDigestsEqualOneRead() throws Exception {
    byte[] data = new byte[5_000_017];
    new Random(3).nextBytes(data);
    try (PartFile p = part(data)) {
      AtomicLong stable = new AtomicLong();
      try (PrefixHasher h =
          new PrefixHasher("t", p.runningDigests(ALGOS), stable::get, STEP, AHEAD, 1)) {
        for (long at = 0; at < 4_000_000; at += 777_777) {
          stable.set(at);
          waitFor(h, at);
          // the hasher follows the prefix on its own and never reads past it
          assertEquals(at, h.hashed());
        }
        assertEquals(p.digests(ALGOS), h.finish(data.length));
      }
    }
  }

  /**
   * Before the end the hasher waits for {@link PrefixHasher#LEAST} new bytes rather than hash every
   * packet's worth; what is below that at the end is hashed by finish.
   */
  @Test
  void growthBelowTheLeastPass_waitsForMore_orForFinish() throws Exception {
    byte[] data = new byte[3_000_000];
    new Random(5).nextBytes(data);
    try (PartFile p = part(data)) {
      AtomicLong stable = new AtomicLong(PrefixHasher.LEAST - 1);
      try (PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), stable::get)) {
        Thread.sleep(50);
        assertEquals(0, h.hashed());
        stable.set(PrefixHasher.LEAST + 1000);
        waitFor(h, PrefixHasher.LEAST + 1000);
        assertEquals(PrefixHasher.LEAST + 1000, h.hashed());
        stable.set(2 * PrefixHasher.LEAST);
        Thread.sleep(50);
        assertEquals(PrefixHasher.LEAST + 1000, h.hashed());
        assertEquals(p.digests(ALGOS), h.finish(data.length));
      }
    }
  }

  @Test
  void finish_hashesTheRestEvenIfThePrefixNeverGrew() throws Exception {
    byte[] data = new byte[1_000_000];
    new Random(4).nextBytes(data);
    try (PartFile p = part(data)) {
      try (PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), () -> 0L)) {
        assertEquals(0, h.hashed());
        assertEquals(p.digests(ALGOS), h.finish(data.length));
      }
    }
  }

  @Test
  void finish_afterTheFileWasClosed_throwsTheReadError() throws Exception {
    byte[] data = new byte[100_000];
    PartFile p = part(data);
    PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), () -> 0L);
    p.close();
    assertThrows(IOException.class, () -> h.finish(data.length));
  }

  @Test
  void close_stopsTheThread() throws Exception {
    byte[] data = new byte[1000];
    try (PartFile p = part(data)) {
      PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), () -> 10L, STEP, AHEAD, 1);
      waitFor(h, 10);
      h.close();
      assertTrue(
          Thread.getAllStackTraces().keySet().stream()
              .noneMatch(t -> t.getName().equals("braid-t-hash")),
          "hashing thread still alive");
    }
  }

  /**
   * The fetchers wait while the hash lags the stable prefix by more than the allowance, and go on
   * as soon as it catches up (issue 17: at memory speed the hash was starved of CPU by the fetch
   * threads and left most of the file to hash after the last byte).
   */
  @Test
  void pace_waitsWhileTheHashLagsBehindThePrefix_andGoesOnWhenItCatchesUp() throws Exception {
    byte[] data = new byte[1 << 20];
    new Random(5).nextBytes(data);
    try (PartFile p = part(data)) {
      CountDownLatch release = new CountDownLatch(1);
      AtomicLong calls = new AtomicLong();
      // the first look shows the whole file; the next holds the hasher after one 64 KiB step
      LongSupplier prefix =
          () -> {
            if (calls.incrementAndGet() > 1) {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return data.length;
          };
      try (PrefixHasher h =
          new PrefixHasher("t", p.runningDigests(ALGOS), prefix, 64 << 10, 128 << 10, 1)) {
        waitFor(h, 64 << 10);
        AtomicLong waited = new AtomicLong(-1);
        Thread fetcher =
            new Thread(
                () -> {
                  try {
                    waited.set(h.pace());
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        fetcher.start();
        fetcher.join(300);
        // 960 KiB behind the prefix, allowed 128 KiB: the fetcher is held
        assertTrue(fetcher.isAlive(), "the fetcher went on while the hash lagged 960 KiB behind");
        release.countDown();
        fetcher.join(30_000);
        assertFalse(fetcher.isAlive(), "the fetcher is still held after the hash caught up");
        assertTrue(waited.get() > 0, "waited " + waited.get() + " ns");
        assertEquals(p.digests(ALGOS), h.finish(data.length));
        // a finished hasher never holds anyone
        assertEquals(0, h.pace());
      }
    }
  }

  @Test
  void pace_aHeldFetcherIsReleasedWhenTheHasherIsClosed() throws Exception {
    byte[] data = new byte[1 << 20];
    try (PartFile p = part(data)) {
      CountDownLatch never = new CountDownLatch(1);
      AtomicLong calls = new AtomicLong();
      LongSupplier prefix =
          () -> {
            if (calls.incrementAndGet() > 1) {
              try {
                never.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return data.length;
          };
      PrefixHasher h =
          new PrefixHasher("t", p.runningDigests(ALGOS), prefix, 64 << 10, 128 << 10, 1);
      waitFor(h, 64 << 10);
      Thread fetcher =
          new Thread(
              () -> {
                try {
                  h.pace();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      fetcher.start();
      fetcher.join(100);
      // close() waits for the hasher thread, which the test holds: close from another thread
      Thread closer = new Thread(h::close);
      closer.start();
      fetcher.join(30_000);
      assertFalse(fetcher.isAlive(), "a cancelled download's fetcher is still held");
      never.countDown();
      closer.join(30_000);
    }
  }
}
