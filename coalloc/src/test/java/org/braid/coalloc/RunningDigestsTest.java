package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Adler32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-file digests fed while the download runs, and the stretch they may be fed from. */
class RunningDigestsTest {
  @TempDir Path dir;
  final URI a = URI.create("http://a/f");

  @Test
  void advanceInUnevenSteps_equalsOneReadOfTheWholeFile() throws Exception {
    int size = 3_000_123;
    byte[] data = new byte[size];
    new Random(7).nextBytes(data);
    try (PartFile p =
        PartFile.open(dir.resolve("f"), size, Map.of(a, new Validators(size, null, null)), false)) {
      p.write(ByteBuffer.wrap(data), 0);
      List<String> algos = List.of("sha-256", "md5", "adler32");
      PartFile.RunningDigests d = p.runningDigests(algos);
      Random r = new Random(1);
      long at = 0;
      while (at < size) {
        at += r.nextInt(700_000);
        d.advance(at);
        d.advance(at / 2); // going back is a no-op
        assertEquals(Math.min(at, size), d.hashed());
      }
      assertEquals(p.digests(algos), d.finish());
    }
  }

  @Test
  void finish_beforeTheWholeFileIsHashed_throws() throws Exception {
    try (PartFile p =
        PartFile.open(dir.resolve("f"), 10, Map.of(a, new Validators(10, null, null)), false)) {
      PartFile.RunningDigests d = p.runningDigests(List.of("sha-256"));
      d.advance(9);
      assertThrows(IllegalStateException.class, d::finish);
    }
  }

  private static BlockScheduler scheduler(long size, RangeSet kept, PieceHashes pieces) {
    List<Replica> replicas = new ArrayList<>();
    replicas.add(new Replica(0, URI.create("http://m0/f"), 0));
    return new BlockScheduler(
        size,
        replicas,
        1,
        ((BlockPolicy.Spec) Scheme.adaptive()).create(),
        () -> 0L,
        kept,
        pieces,
        null);
  }

  @Test
  void stablePrefix_isTheCommittedRangeFromByteZero() {
    RangeSet kept = new RangeSet();
    kept.add(0, 100);
    kept.add(200, 300);
    assertEquals(100, scheduler(1000, kept, null).stablePrefix());

    RangeSet gapAtStart = new RangeSet();
    gapAtStart.add(1, 500);
    assertEquals(0, scheduler(1000, gapAtStart, null).stablePrefix());
  }

  @Test
  void stablePrefix_withPieces_stopsAtTheFirstUnverifiedPiece() {
    RangeSet kept = new RangeSet();
    kept.add(0, 100); // piece 0 (0-64) whole, piece 1 (64-128) only partly
    String zero = String.join("", Collections.nCopies(64, "0"));
    BlockScheduler s =
        scheduler(256, kept, new PieceHashes("sha-256", 64, List.of(zero, zero, zero, zero)));
    assertEquals(64, s.stablePrefix());
    s.pieceVerified(1); // pieces 0 and 1 verified: now the committed bytes are the limit
    assertEquals(100, s.stablePrefix());
  }

  /**
   * The whole-file digests read the part file through mappings (issue 17: reading it back into a
   * buffer cost the hash thread a third of its time at memory speed), unmapped as they go, across
   * window boundaries and from uneven positions, with the same values as hashing the bytes in
   * memory.
   */
  @Test
  void wholeFile_isHashedThroughMappings_acrossWindows_sameDigestsAsTheBytes() throws Exception {
    int size = (int) (PartFile.MAP_WINDOW + PartFile.MAP_WINDOW / 3 + 123);
    byte[] data = new byte[size];
    new Random(8).nextBytes(data);
    try (PartFile p =
        PartFile.open(dir.resolve("f"), size, Map.of(a, new Validators(size, null, null)), false)) {
      p.write(ByteBuffer.wrap(data), 0);
      PartFile.RunningDigests d = p.runningDigests(List.of("sha-256", "md5", "adler32"));
      assertTrue(Unmapper.available(), "this JDK does not let mappings be unmapped at once");
      assertTrue(d.mapped(), "the whole-file digests read the file instead of mapping it");
      d.advance(5_000_001);
      d.advance(PartFile.MAP_WINDOW + 77);
      d.advance(size);
      Map<String, String> got = d.finish();
      assertEquals(hex("SHA-256", data), got.get("sha-256"));
      assertEquals(hex("MD5", data), got.get("md5"));
      Adler32 adler = new Adler32();
      adler.update(data);
      assertEquals(String.format("%08x", adler.getValue()), got.get("adler32"));
    }
  }

  private static String hex(String algorithm, byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
  }
}
