package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link RangeSource} keeps (as JGraphT's {@code MaximumFlowAlgorithmTest}): a
 * subclass per implementation says how to serve a file with it. The sources that need no external
 * server are tested in this module; {@code GridFtpRangeSource} in the system tests against a real
 * globus-gridftp-server (this class is published in braid-coalloc's test jar for that).
 */
public abstract class RangeSourceContractTest {
  /** Size of the served file in bytes. */
  protected static final int SIZE = 300_000;

  /** A fresh directory per test; the served file is in it. */
  @TempDir protected Path dir;

  private byte[] data;
  private RangeSource source;

  /**
   * A source for the file, served by the implementation under test.
   *
   * @param file a file of {@link #SIZE} pseudo-random bytes
   */
  protected abstract RangeSource create(Path file) throws Exception;

  /** Stops whatever {@link #create} started; called after the source is closed. */
  protected void cleanup() throws Exception {}

  @BeforeEach
  public void setUp() throws Exception {
    Path file = TestFiles.random(dir, "f.bin", SIZE, 11);
    data = Files.readAllBytes(file);
    source = create(file);
  }

  @AfterEach
  public void tearDown() throws Exception {
    source.close();
    cleanup();
  }

  static byte[] readAll(ReadableByteChannel ch) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(7000);
    while (ch.read(b.clear()) >= 0) {
      out.write(b.array(), 0, b.position());
    }
    return out.toByteArray();
  }

  @Test
  public void probe_reportsSize() throws Exception {
    assertEquals(SIZE, source.probe().size());
  }

  @Test
  public void open_deliversExactlyTheRange() throws Exception {
    source.probe();
    for (long[] r : new long[][] {{0, SIZE}, {0, 1}, {SIZE - 1, 1}, {12345, 100_000}}) {
      try (ReadableByteChannel ch = source.open(r[0], r[1])) {
        assertArrayEquals(Arrays.copyOfRange(data, (int) r[0], (int) (r[0] + r[1])), readAll(ch));
      }
    }
  }

  @Test
  public void open_emptyRange_deliversNothing() throws Exception {
    source.probe();
    try (ReadableByteChannel ch = source.open(100, 0)) {
      assertEquals(0, readAll(ch).length);
    }
  }

  @Test
  public void open_negative_throwsIllegalArgument() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> source.open(-1, 5));
    assertEquals("range must not be negative: -1+5", e.getMessage());
  }

  @Test
  public void open_pastEnd_throwsSourceException() throws Exception {
    source.probe();
    assertThrows(SourceException.class, () -> readAll(source.open(SIZE - 10, 20)));
  }

  @Test
  public void close_beforeEnd_thenNextRangeStillWorks() throws Exception {
    source.probe();
    try (ReadableByteChannel ch = source.open(0, SIZE)) {
      ch.read(ByteBuffer.allocate(1000));
    }
    try (ReadableByteChannel ch = source.open(5, 10)) {
      assertArrayEquals(Arrays.copyOfRange(data, 5, 15), readAll(ch));
    }
  }
}
