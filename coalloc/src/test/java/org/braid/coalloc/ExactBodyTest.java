package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The body of a range answer read into the fetcher's buffer. */
class ExactBodyTest {
  /** A stream that remembers the last array it was asked to fill. */
  private static final class Recording extends ByteArrayInputStream {
    byte[] last;

    Recording(byte[] data) {
      super(data);
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) {
      last = b;
      return super.read(b, off, Math.min(len, 1000));
    }
  }

  private static ExactBody body(InputStream in, long length) {
    return new ExactBody(
        URI.create("http://a/f"), in, length, Duration.ofSeconds(1), "body", "connection") {
      @Override
      void complete() throws IOException {
        expectEnd();
      }

      @Override
      public boolean isOpen() {
        return true;
      }

      @Override
      public void close() {}
    };
  }

  /**
   * A heap buffer is filled by the stream itself, at its position, with no copy in between (issue
   * 17: every copy of a 2 GB file costs CPU the hash needs at memory speed); a direct buffer gets
   * the same bytes.
   */
  @Test
  void read_intoAHeapBuffer_theStreamFillsItsArray_sameBytesAsADirectOne() throws Exception {
    byte[] data = new byte[10_000];
    new Random(7).nextBytes(data);
    Recording in = new Recording(data);
    ExactBody b = body(in, data.length);
    ByteBuffer heap = ByteBuffer.allocate(20_000);
    heap.position(5);
    ByteBuffer slice = heap.slice();
    int n;
    while ((n = b.read(slice)) >= 0) {
      assertSame(heap.array(), in.last, "the stream did not fill the buffer's own array");
      assertTrue(n > 0);
    }
    assertEquals(data.length, slice.position());
    assertArrayEquals(data, Arrays.copyOfRange(heap.array(), 5, 5 + data.length));

    Recording again = new Recording(data);
    ExactBody d = body(again, data.length);
    ByteBuffer direct = ByteBuffer.allocateDirect(20_000);
    while (d.read(direct) >= 0) {
      // read until the end
    }
    direct.flip();
    byte[] got = new byte[direct.remaining()];
    direct.get(got);
    assertArrayEquals(data, got);
  }
}
