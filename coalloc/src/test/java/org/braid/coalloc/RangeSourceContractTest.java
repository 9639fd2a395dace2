package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One contract, run against every {@link RangeSource} that needs no external server. */
abstract class RangeSourceContractTest {
  static final int SIZE = 300_000;
  @TempDir Path dir;
  Path file;
  byte[] data;
  RangeSource source;

  abstract RangeSource create(Path file) throws Exception;

  void cleanup() throws Exception {}

  @BeforeEach
  void setUp() throws Exception {
    file = TestFiles.random(dir, "f.bin", SIZE, 11);
    data = Files.readAllBytes(file);
    source = create(file);
  }

  @AfterEach
  void tearDown() throws Exception {
    source.close();
    cleanup();
  }

  static byte[] readAll(ReadableByteChannel ch) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(7000);
    while (ch.read(b.clear()) >= 0) {
      out.write(b.array(), 0, b.position());
    }
    return out.toByteArray();
  }

  @Test
  void probe_reportsSize() throws Exception {
    assertEquals(SIZE, source.probe().size());
  }

  @Test
  void open_deliversExactlyTheRange() throws Exception {
    source.probe();
    for (long[] r : new long[][] {{0, SIZE}, {0, 1}, {SIZE - 1, 1}, {12345, 100_000}}) {
      try (ReadableByteChannel ch = source.open(r[0], r[1])) {
        assertArrayEquals(Arrays.copyOfRange(data, (int) r[0], (int) (r[0] + r[1])), readAll(ch));
      }
    }
  }

  @Test
  void open_emptyRange_deliversNothing() throws Exception {
    source.probe();
    try (ReadableByteChannel ch = source.open(100, 0)) {
      assertEquals(0, readAll(ch).length);
    }
  }

  @Test
  void open_negative_throwsIllegalArgument() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> source.open(-1, 5));
    assertEquals("range must not be negative: -1+5", e.getMessage());
  }

  @Test
  void open_pastEnd_throwsSourceException() throws Exception {
    source.probe();
    assertThrows(SourceException.class, () -> readAll(source.open(SIZE - 10, 20)));
  }

  @Test
  void close_beforeEnd_thenNextRangeStillWorks() throws Exception {
    source.probe();
    try (ReadableByteChannel ch = source.open(0, SIZE)) {
      ch.read(ByteBuffer.allocate(1000));
    }
    try (ReadableByteChannel ch = source.open(5, 10)) {
      assertArrayEquals(Arrays.copyOfRange(data, 5, 15), readAll(ch));
    }
  }
}
