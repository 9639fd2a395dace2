package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.braid.cli.mirror.Mirror.Fault;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faulty mirrors never corrupt the output: the download finishes from the others or fails. */
class FaultInjectionTest {
  static final int SIZE = 4_000_000;
  @TempDir Path dir;
  Path src;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    src = TestFiles.random(dir, "data.bin", SIZE, 7);
    out = dir.resolve("out.bin");
  }

  private DownloadReport download(Scheme scheme, List<Checksum> sums, URI... uris)
      throws Exception {
    return Download.builder()
        .sources(List.of(uris))
        .output(out)
        .scheme(scheme)
        .checksums(sums)
        .journal(dir.resolve("journal.jsonl"))
        .sourceOptions(
            SourceOptions.builder()
                .stallTimeout(Duration.ofSeconds(1))
                .connectTimeout(Duration.ofSeconds(1))
                .build())
        .build()
        .run();
  }

  private Mirror good(double rate) throws Exception {
    return Mirror.builder(src).rate(rate).start();
  }

  private Mirror bad(Fault f, long after, double rate) throws Exception {
    return Mirror.builder(src).rate(rate).fault(f).faultAfter(after).start();
  }

  private void assertIdentical() throws Exception {
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    assertFalse(Files.exists(dir.resolve("out.bin.part")));
    assertFalse(Files.exists(dir.resolve("out.bin.braid-ctl")));
  }

  private String sha256() throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(src)));
  }

  @Test
  void mirrorDiesMidTransfer_finishesFromOthers() throws Exception {
    for (Scheme s : List.of(Scheme.adaptive(), Scheme.bruteForce(), Scheme.conservative(5))) {
      try (Mirror dying = bad(Fault.DIE, 500_000, 4e6);
          Mirror a = good(2e6)) {
        DownloadReport r = download(s, List.of(), dying.uri(), a.uri());
        assertIdentical();
        assertTrue(r.replicas().get(0).failures() >= 1, r.replicas().toString());
        Files.delete(out);
      }
    }
  }

  @Test
  void mirrorStalls_finishesFromOthers() throws Exception {
    try (Mirror stalling = bad(Fault.STALL, 300_000, 4e6);
        Mirror a = good(3e6)) {
      DownloadReport r = download(Scheme.adaptive(), List.of(), stalling.uri(), a.uri());
      assertIdentical();
      assertEquals(SIZE, r.replicas().get(0).bytes() + r.replicas().get(1).bytes());
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void mirrorSendsHeadersThenNothing_adaptiveTakesItsBlockLongBeforeTheStallTimeout()
      throws Exception {
    // the probe is folded into the first data request: its answer has headers and no byte
    try (Mirror silent = bad(Fault.STALL, 0, 0);
        Mirror a = good(4e6)) {
      DownloadReport r =
          Download.builder()
              .sources(List.of(silent.uri(), a.uri()))
              .output(out)
              .journal(null)
              .sourceOptions(SourceOptions.builder().stallTimeout(Duration.ofSeconds(120)).build())
              .build()
              .run();
      assertIdentical();
      // the silent replica was never timed out: its range was taken over
      assertEquals(0, r.replicas().get(0).bytes());
      assertEquals(0, r.replicas().get(0).failures());
      assertEquals(SIZE, r.replicas().get(1).bytes());
    }
  }

  @Test
  void mirrorStalls_staticScheme_stallTimeoutReturnsRangeToPool() throws Exception {
    try (Mirror stalling = bad(Fault.STALL, 300_000, 4e6);
        Mirror a = good(3e6)) {
      DownloadReport r = download(Scheme.bruteForce(), List.of(), stalling.uri(), a.uri());
      assertIdentical();
      assertTrue(r.replicas().get(0).failures() >= 1);
    }
  }

  @Test
  void mirrorIgnoresRangeFromTheStart_servesAsOneWholeFileFlow() throws Exception {
    try (Mirror whole = bad(Fault.IGNORE_RANGE, 0, 0);
        Mirror a = good(0)) {
      DownloadReport r = download(Scheme.adaptive(), List.of(), whole.uri(), a.uri());
      assertIdentical();
      assertNull(r.replicas().get(0).dropped());
      assertTrue(r.replicas().get(0).bytes() > 0, r.replicas().toString());
    }
  }

  @Test
  void mirrorStartsIgnoringRangesMidway_isDroppedAndOutputIntact() throws Exception {
    try (Mirror liar = bad(Fault.IGNORE_RANGE, 400_000, 4e6);
        Mirror a = good(2e6)) {
      DownloadReport r = download(Scheme.conservative(10), List.of(), liar.uri(), a.uri());
      assertIdentical();
      assertTrue(
          r.replicas().get(0).dropped().contains("answered 200"), r.replicas().get(0).dropped());
    }
  }

  @Test
  void mirrorSendsWrongContentRange_isDroppedAndOutputIntact() throws Exception {
    try (Mirror liar = bad(Fault.WRONG_CONTENT_RANGE, 400_000, 4e6);
        Mirror a = good(2e6)) {
      DownloadReport r = download(Scheme.conservative(10), List.of(), liar.uri(), a.uri());
      assertIdentical();
      assertTrue(
          r.replicas().get(0).dropped().contains("Content-Range"), r.replicas().get(0).dropped());
    }
  }

  @Test
  void mirrorSendsLongerBodyThanAsked_outputIntact() throws Exception {
    try (Mirror liar = bad(Fault.LONG_BODY, 400_000, 4e6);
        Mirror a = good(2e6)) {
      DownloadReport r = download(Scheme.conservative(10), List.of(), liar.uri(), a.uri());
      assertIdentical();
      assertTrue(
          r.replicas()
              .get(0)
              .dropped()
              .endsWith("server sent more than the 400000 requested bytes"),
          r.replicas().get(0).dropped());
      assertTrue(
          r.events().stream()
              .anyMatch(
                  e -> e.result().contains("server sent more than the 400000 requested bytes")),
          r.events().toString());
    }
  }

  @Test
  void mirrorAnswers503_backsOffAndRetries() throws Exception {
    try (Mirror flaky = bad(Fault.ERROR_503, 0, 0)) {
      // the probe itself gets 503: a single flaky replica cannot be used
      DownloadException e =
          assertThrows(
              DownloadException.class, () -> download(Scheme.adaptive(), List.of(), flaky.uri()));
      assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
    }
    try (Mirror flaky = bad(Fault.ERROR_503, 200_000, 0)) {
      DownloadReport r = download(Scheme.conservative(20), List.of(), flaky.uri());
      assertIdentical();
      assertTrue(r.replicas().get(0).failures() >= 1);
      assertTrue(r.replicas().get(0).dropped() == null);
    }
  }

  @Test
  void corruptMirror_withChecksum_failsAndKeepsNoOutput() throws Exception {
    try (Mirror corrupt = bad(Fault.CORRUPT, 1_000_000, 0);
        Mirror a = good(0)) {
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () ->
                  download(
                      Scheme.bruteForce(),
                      List.of(new Checksum("sha256", sha256())),
                      corrupt.uri(),
                      a.uri()));
      assertTrue(e.getMessage().startsWith("sha-256 checksum mismatch: expected "), e.getMessage());
      assertFalse(Files.exists(out));
      assertFalse(Files.exists(dir.resolve("out.bin.part")));
    }
  }

  @Test
  void goodMirrors_withChecksums_verifyEveryAlgorithm() throws Exception {
    byte[] data = Files.readAllBytes(src);
    java.util.zip.Adler32 adler = new java.util.zip.Adler32();
    adler.update(data);
    List<Checksum> sums =
        List.of(
            new Checksum("sha256", sha256()),
            new Checksum(
                "sha1", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data))),
            new Checksum(
                "md5", HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data))),
            new Checksum("adler32", String.format("%08x", adler.getValue())));
    try (Mirror a = good(0);
        Mirror b = good(0)) {
      DownloadReport r = download(Scheme.adaptive(), sums, a.uri(), b.uri());
      assertIdentical();
      assertEquals(sha256(), r.sha256());
      assertEquals(4, r.digests().size());
    }
  }

  @Test
  void replicaWithDifferentSize_isDropped() throws Exception {
    Path other = TestFiles.random(dir, "other.bin", SIZE + 1, 8);
    try (Mirror a = good(0);
        Mirror b = good(0);
        Mirror odd = Mirror.builder(other).start()) {
      URI oddUri = URI.create(odd.uri().toString().replace("other.bin", "other.bin"));
      DownloadReport r = download(Scheme.adaptive(), List.of(), oddUri, a.uri(), b.uri());
      assertIdentical();
      assertEquals(
          oddUri + ": serves " + (SIZE + 1) + " bytes, the other replicas " + SIZE,
          r.replicas().get(0).dropped());
      assertEquals(0, r.replicas().get(0).bytes());
    }
  }

  @Test
  void everyReplicaFails_reportsEachReasonAndWritesNoOutput() throws Exception {
    try (Mirror a = bad(Fault.DIE, 100_000, 0);
        Mirror b = bad(Fault.IGNORE_RANGE, 100_000, 0)) {
      DownloadException e =
          assertThrows(
              DownloadException.class,
              () -> download(Scheme.adaptive(), List.of(), a.uri(), b.uri()));
      assertTrue(e.getMessage().startsWith("every replica failed:"), e.getMessage());
      assertTrue(e.getMessage().contains(a.uri().toString()), e.getMessage());
      assertTrue(e.getMessage().contains(b.uri().toString()), e.getMessage());
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void unreachableReplica_isDroppedAtProbe() throws Exception {
    URI dead;
    try (Mirror m = good(0)) {
      dead = m.uri();
    }
    try (Mirror a = good(0)) {
      DownloadReport r = download(Scheme.adaptive(), List.of(), dead, a.uri());
      assertIdentical();
      assertTrue(
          r.replicas().get(0).dropped().startsWith(dead.toString()), r.replicas().get(0).dropped());
    }
  }
}
