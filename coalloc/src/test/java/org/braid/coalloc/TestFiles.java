package org.braid.coalloc;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

final class TestFiles {
  private TestFiles() {}

  /** Writes {@code size} pseudo-random bytes from a fixed seed. */
  static Path random(Path dir, String name, long size, long seed) throws IOException {
    Path p = dir.resolve(name);
    SplittableRandom r = new SplittableRandom(seed);
    byte[] buf = new byte[1 << 16];
    try (OutputStream out = Files.newOutputStream(p)) {
      long left = size;
      while (left > 0) {
        r.nextBytes(buf);
        int n = (int) Math.min(buf.length, left);
        out.write(buf, 0, n);
        left -= n;
      }
    }
    return p;
  }
}
