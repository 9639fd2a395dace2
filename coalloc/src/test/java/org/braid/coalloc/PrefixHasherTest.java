package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole-file digests fed on a thread of their own as the stable prefix grows. */
class PrefixHasherTest {
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
      try (PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), stable::get)) {
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
      PrefixHasher h = new PrefixHasher("t", p.runningDigests(ALGOS), () -> 10L);
      waitFor(h, 10);
      h.close();
      assertTrue(
          Thread.getAllStackTraces().keySet().stream()
              .noneMatch(t -> t.getName().equals("braid-t-hash")),
          "hashing thread still alive");
    }
  }
}
