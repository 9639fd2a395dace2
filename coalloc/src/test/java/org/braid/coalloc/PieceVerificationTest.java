package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.braid.cli.mirror.Mirror.Fault;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metalink piece hashes: bad pieces are fetched again elsewhere and their source penalised. */
class PieceVerificationTest {
  static final int SIZE = 4_000_000;
  static final int PIECE = 256 * 1024;
  @TempDir Path dir;
  Path src;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    src = TestFiles.random(dir, "data.bin", SIZE, 7);
    out = dir.resolve("out.bin");
  }

  static PieceHashes hashes(byte[] data, String algo, int piece) throws Exception {
    List<String> hex = new ArrayList<>();
    for (int s = 0; s < data.length; s += piece) {
      MessageDigest md = MessageDigest.getInstance(algo);
      md.update(data, s, Math.min(piece, data.length - s));
      hex.add(HexFormat.of().formatHex(md.digest()));
    }
    return new PieceHashes(algo, piece, hex);
  }

  private Download.Builder builder(Scheme scheme, PieceHashes p, URI... uris) {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .scheme(scheme)
        .pieces(p)
        .journal(null)
        .sourceOptions(
            SourceOptions.builder()
                .stallTimeout(Duration.ofSeconds(2))
                .connectTimeout(Duration.ofSeconds(1))
                .build());
  }

  private String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }

  @Test
  void corruptRegion_withPieceHashes_refetchesFromOtherReplicaAndPenalisesSource()
      throws Exception {
    byte[] data = Files.readAllBytes(src);
    for (Scheme s : List.of(Scheme.bruteForce())) {
      try (Mirror corrupt = Mirror.builder(src).fault(Fault.CORRUPT).faultAfter(300_000).start();
          Mirror good = Mirror.builder(src).start()) {
        DownloadReport r =
            builder(s, hashes(data, "SHA-256", PIECE), corrupt.uri(), good.uri())
                .checksums(List.of(new Checksum("sha256", sha256(data))))
                .build()
                .run();
        assertArrayEquals(data, Files.readAllBytes(out), s.name());
        assertFalse(Files.exists(dir.resolve("out.bin.part")));
        ReplicaReport bad = r.replicas().get(0);
        assertTrue(bad.failures() > 0 || bad.dropped() != null, r.replicas().toString());
        assertTrue(
            r.events().stream()
                .anyMatch(e -> e.replica() == 0 && e.result().contains("sha-256 mismatch")),
            r.events().toString());
        assertEquals(0, r.replicas().get(1).failures(), s.name() + " " + r.events());
        // the bad piece (bytes 262144-524288, corrupted from 300000) was fetched again from the
        // other replica
        assertTrue(
            r.events().stream()
                .anyMatch(
                    e ->
                        e.replica() == 1
                            && e.written() > 0
                            && e.offset() <= PIECE
                            && e.endOffset() >= 2 * PIECE),
            r.events().toString());
        Files.delete(out);
      }
    }
  }

  @Test
  void corruptRegion_adaptiveAndConservative_outputIdenticalAndOnlyTheCorruptReplicaBlamed()
      throws Exception {
    byte[] data = Files.readAllBytes(src);
    for (Scheme s : List.of(Scheme.adaptive(), Scheme.conservative(8))) {
      try (Mirror corrupt = Mirror.builder(src).fault(Fault.CORRUPT).faultAfter(300_000).start();
          Mirror good = Mirror.builder(src).rate(20e6).start()) {
        DownloadReport r =
            builder(s, hashes(data, "SHA-256", PIECE), corrupt.uri(), good.uri()).build().run();
        assertArrayEquals(data, Files.readAllBytes(out), s.name());
        // which replica fetched the corrupt region depends on timing; a piece is blamed on the
        // good replica only when it also wrote part of that piece
        long blamedGood =
            r.events().stream()
                .filter(e -> e.replica() == 1 && e.result().startsWith("error: piece"))
                .count();
        long blamedCorrupt =
            r.events().stream()
                .filter(e -> e.replica() == 0 && e.result().startsWith("error: piece"))
                .count();
        assertTrue(blamedGood <= blamedCorrupt, s.name() + " " + r.events());
        Files.delete(out);
      }
    }
  }

  @Test
  void everyReplicaServesBadPieces_failsClearlyAndWritesNoOutput() throws Exception {
    byte[] data = Files.readAllBytes(src);
    Path other = TestFiles.random(dir, "other.bin", SIZE, 8); // same size, other bytes
    try (Mirror a = Mirror.builder(other).start();
        Mirror b = Mirror.builder(other).start()) {
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () ->
                  builder(Scheme.adaptive(), hashes(data, "SHA-1", PIECE), a.uri(), b.uri())
                      .build()
                      .run());
      assertTrue(e.getMessage().startsWith("every replica failed: "), e.getMessage());
      assertTrue(e.getMessage().contains("pieces failed the sha-1 check"), e.getMessage());
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void digestCountNotMatchingSize_failsBeforeDownloading() throws Exception {
    byte[] data = Files.readAllBytes(src);
    PieceHashes full = hashes(data, "SHA-256", PIECE);
    PieceHashes shortList =
        new PieceHashes("sha256", PIECE, full.hex().subList(0, full.hex().size() - 1));
    try (Mirror a = Mirror.builder(src).start()) {
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () -> builder(Scheme.adaptive(), shortList, a.uri()).build().run());
      assertEquals(
          "piece hashes: 15 digests given, but a 4000000-byte file has 16 pieces of 262144 bytes",
          e.getMessage());
      // nothing beyond the first request, into which the probe is folded
      assertTrue(
          a.servedBytes() <= Engine.FIRST_REQUEST, "only the first request: " + a.servedBytes());
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void resume_refetchesResumedPiecesThatNoLongerMatch() throws Exception {
    byte[] data = Files.readAllBytes(src);
    PieceHashes p = hashes(data, "MD5", PIECE);
    try (Mirror a = Mirror.builder(src).start()) {
      // a first run stopped half way: the control file says bytes 0-2000000 are done
      Path part = dir.resolve("out.bin.part");
      Files.write(part, data);
      Files.writeString(
          dir.resolve("out.bin.braid-ctl"),
          "braid-ctl 1\nsize\t" + SIZE + "\nreplica\t" + a.uri() + "\t-\t-\ndone\t0\t2000000\n");
      // ...but piece 1 on disk is damaged
      try (FileChannel ch = FileChannel.open(part, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(new byte[] {(byte) ~data[PIECE + 5]}), PIECE + 5);
      }
      DownloadReport r = builder(Scheme.adaptive(), p, a.uri()).build().run();
      assertArrayEquals(data, Files.readAllBytes(out));
      // kept: the whole pieces inside 0-2000000 (7 of them) except the damaged piece 1
      assertEquals(6L * PIECE, r.resumedBytes());
    }
  }

  @Test
  void pieceHashes_rejectBadValues() {
    String hex = "a".repeat(64);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new PieceHashes("sha-3", 1024, List.of(hex)));
    assertEquals(
        "unknown piece hash algorithm 'sha-3' (use sha-256, sha-1, sha-512, md5 or adler32)",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> new PieceHashes("sha-256", 0, List.of(hex)));
    assertEquals("piece length must be positive: 0", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new PieceHashes("sha-256", 1024, List.of(hex, "xyz")));
    assertEquals("sha-256 piece 1 digest must be 64 hexadecimal digits: 'xyz'", e.getMessage());
    PieceHashes ok = new PieceHashes("SHA512", 10, List.of("B".repeat(128)));
    assertEquals("sha-512", ok.algorithm());
    assertEquals("b".repeat(128), ok.hex().get(0));
    assertEquals(1, ok.piecesFor(10));
    assertEquals(2, ok.piecesFor(11));
    assertEquals(0, ok.piecesFor(0));
  }
}
