package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Extended block mode against a scripted server that sends blocks out of order, or wrongly. */
class GridFtpModeETest {
  static final int SIZE = 300_000;
  byte[] file;
  ScriptedModeEServer server;

  @BeforeEach
  void start() throws IOException {
    file = new byte[SIZE];
    new SplittableRandom(20).nextBytes(file);
    server = new ScriptedModeEServer(file);
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  private GridFtpRangeSource source(int streams) {
    SourceOptions o =
        SourceOptions.builder()
            .gridFtpStreams(streams)
            .tcpBuffer(1 << 20)
            .stallTimeout(Duration.ofSeconds(2))
            .build();
    return new GridFtpRangeSource(server.uri(), o);
  }

  private static byte[] readAll(ReadableByteChannel ch, int max) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(max + 1);
    while (ch.read(b) >= 0) {
      if (!b.hasRemaining()) {
        break;
      }
    }
    return Arrays.copyOf(b.array(), b.position());
  }

  @Test
  void open_shuffledBlocksOverFourConnections_deliversTheRangeInOrder() throws IOException {
    try (GridFtpRangeSource s = source(4)) {
      try (ReadableByteChannel ch = s.open(12_345, 200_000)) {
        assertEquals(4, ((ParallelChannel) ch).streams());
        assertArrayEquals(Arrays.copyOfRange(file, 12_345, 212_345), readAll(ch, 200_000));
      }
      try (ReadableByteChannel ch = s.open(250_000, 50_000)) {
        assertArrayEquals(Arrays.copyOfRange(file, 250_000, 300_000), readAll(ch, 50_000));
      }
    }
    List<String> c = server.commands();
    assertTrue(c.contains("MODE E"), c.toString());
    assertTrue(c.contains("SBUF 1048576"), c.toString());
    assertTrue(c.contains("OPTS RETR Parallelism=4,4,4;"), c.toString());
    // the parallelism before PORT: the server sets up its data channel at PORT
    int opts = c.indexOf("OPTS RETR Parallelism=4,4,4;");
    assertTrue(c.get(opts + 1).startsWith("PORT 127,0,0,1,"), c.toString());
    // one login, one PORT: the second range reuses the four data connections
    assertEquals(1, c.stream().filter(x -> x.startsWith("PORT")).count(), c.toString());
    assertEquals(List.of(4, 4), server.connectionsPerTransfer());
  }

  /** Reads exactly {@code n} bytes and stops, as the fetch loop does (no read for the end). */
  private static byte[] readExactly(ReadableByteChannel ch, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (ch.read(b) < 0) {
        break;
      }
    }
    return b.array();
  }

  @Test
  void open_rangeReadToItsLastByteOnly_keepsTheSessionAndDataConnections() throws IOException {
    try (GridFtpRangeSource s = source(4)) {
      for (int i = 0; i < 3; i++) {
        try (ReadableByteChannel ch = s.open(i * 90_000L, 90_000)) {
          assertArrayEquals(
              Arrays.copyOfRange(file, i * 90_000, (i + 1) * 90_000), readExactly(ch, 90_000));
          assertTrue(!ch.isOpen(), "the range completes with its last byte");
        }
      }
    }
    List<String> c = server.commands();
    // one login and one data channel set-up for the three ranges
    assertEquals(1, c.stream().filter(x -> x.startsWith("USER")).count(), c.toString());
    assertEquals(1, c.stream().filter(x -> x.startsWith("PORT")).count(), c.toString());
    assertEquals(3, c.stream().filter(x -> x.startsWith("ERET")).count(), c.toString());
    assertEquals(List.of(4, 4, 4), server.connectionsPerTransfer());
  }

  @Test
  void probeThenRanges_oneRoundTripForTheProbeAndOneForEachRange() throws IOException {
    try (GridFtpRangeSource s = source(4)) {
      assertEquals(SIZE, s.probe().size());
      for (int i = 0; i < 2; i++) {
        try (ReadableByteChannel ch = s.open(i * 90_000L, 90_000)) {
          assertArrayEquals(
              Arrays.copyOfRange(file, i * 90_000, (i + 1) * 90_000), readExactly(ch, 90_000));
        }
      }
    }
    List<String> c = server.commands();
    String port = c.stream().filter(x -> x.startsWith("PORT ")).findFirst().orElseThrow();
    assertEquals(
        List.of(
            "USER anonymous",
            "PASS braid@",
            "TYPE I",
            "SIZE /data.bin",
            "MDTM /data.bin",
            "CKSM adler32 0 -1 /data.bin",
            "MODE E",
            "SBUF 1048576",
            "OPTS RETR Parallelism=4,4,4;",
            port,
            "ERET P 0 90000 /data.bin",
            "ERET P 90000 90000 /data.bin"),
        c);
    // login, SIZE, MDTM, CKSM and the set-up in one round trip; then one ERET each
    assertEquals(3, server.batches(), c.toString());
  }

  @Test
  void open_newSession_logsInSetsUpAndRetrievesInOneRoundTrip() throws IOException {
    try (GridFtpRangeSource s = source(2);
        ReadableByteChannel ch = s.open(1000, 5000)) {
      assertArrayEquals(Arrays.copyOfRange(file, 1000, 6000), readExactly(ch, 5000));
    }
    assertEquals(1, server.batches(), server.commands().toString());
    assertEquals("ERET P 1000 5000 /data.bin", server.commands().get(server.commands().size() - 1));
  }

  @Test
  void probe_sbufRefused_asksSiteRetrbufsizeAndTheRangeStillWorks() throws IOException {
    server.fault(ScriptedModeEServer.Fault.REFUSE_SBUF);
    try (GridFtpRangeSource s = source(2)) {
      s.probe();
      try (ReadableByteChannel ch = s.open(0, 1000)) {
        assertArrayEquals(Arrays.copyOf(file, 1000), readExactly(ch, 1000));
      }
    }
    List<String> c = server.commands();
    int port = c.indexOf(c.stream().filter(x -> x.startsWith("PORT ")).findFirst().orElseThrow());
    assertEquals("SITE RETRBUFSIZE 1048576", c.get(port + 1), c.toString());
    assertEquals("ERET P 0 1000 /data.bin", c.get(port + 2), c.toString());
    assertEquals(1, c.stream().filter(x -> x.startsWith("USER")).count(), c.toString());
  }

  @Test
  void open_serverRefusesModeE_readsInStreamMode() throws IOException {
    server.fault(ScriptedModeEServer.Fault.REFUSE_MODE_E);
    try (GridFtpRangeSource s = source(4)) {
      // the script knows no stream mode (PASV): the fallback shows as its refusal
      SourceException e = assertThrows(SourceException.class, () -> s.open(0, 10));
      assertTrue(e.getMessage().contains("PASV refused"), e.getMessage());
    }
    assertTrue(server.commands().contains("PASV"), server.commands().toString());
  }

  @Test
  void open_blockOutsideTheRange_failsNamingIt() throws IOException {
    server.fault(ScriptedModeEServer.Fault.BLOCK_OUTSIDE_RANGE);
    IOException e = failure(2);
    assertTrue(e.getMessage().contains("lies outside the 100000-byte range"), e.getMessage());
  }

  @Test
  void open_overlappingBlocks_fail() throws IOException {
    server.fault(ScriptedModeEServer.Fault.OVERLAPPING_BLOCKS);
    IOException e = failure(2);
    assertTrue(e.getMessage().contains("overlaps bytes already received"), e.getMessage());
  }

  @Test
  void open_connectionClosedMidBlock_failsWithBytesSoFar() throws IOException {
    server.fault(ScriptedModeEServer.Fault.CLOSE_MID_BLOCK);
    IOException e = failure(3);
    assertTrue(e.getMessage().contains("closed in the middle of a block"), e.getMessage());
  }

  @Test
  void open_fewerEodsThanAnnounced_stallsInBoundedTime() throws IOException {
    server.fault(ScriptedModeEServer.Fault.WRONG_EOD_COUNT);
    long t0 = System.nanoTime();
    IOException e = failure(2);
    assertTrue(e instanceof SourceException.StalledException, e.toString());
    assertTrue(e.getMessage().contains("2 of 3 data connections ended"), e.getMessage());
    assertTrue(System.nanoTime() - t0 < 10e9);
  }

  private IOException failure(int streams) throws IOException {
    try (GridFtpRangeSource s = source(streams);
        ReadableByteChannel ch = s.open(0, 100_000)) {
      return assertThrows(SourceException.class, () -> readAll(ch, 100_000));
    }
  }
}
