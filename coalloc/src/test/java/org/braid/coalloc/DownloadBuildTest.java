package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Download.Builder#build()} yields an immutable download, and refuses a scheme that lacks
 * what it needs before anything touches the disk.
 */
class DownloadBuildTest {
  static final URI A = URI.create("http://a.example/f");
  static final URI B = URI.create("http://b.example/f");

  @TempDir Path dir;

  @Test
  void build_builderChangedAfterwards_downloadUnchanged() throws Exception {
    Path a = TestFiles.random(dir, "a.bin", 1_000_000, 5);
    Path b = Files.copy(a, dir.resolve("b.bin"));
    Path other = TestFiles.random(dir, "other.bin", 500_000, 6);
    Path out = dir.resolve("out");
    Path journal = dir.resolve("journal.jsonl");
    String sha256 =
        HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(a)));
    Download.Builder builder =
        Download.builder()
            .sources(List.of(a.toUri(), b.toUri()))
            .output(out)
            .scheme(Scheme.conservative(4))
            .journal(journal)
            .checksums(List.of(new Checksum("sha-256", sha256)));
    Download d = builder.build();

    // every setting changed after build(); had the download seen any, it would fail or differ
    builder
        .sources(List.of(other.toUri()))
        .output(dir.resolve("elsewhere"))
        .scheme(Scheme.singleBest())
        .maxSources(1)
        .predictedRates(List.of(new PredictedRate(b.toUri(), 1e6)))
        .journal(dir.resolve("other.jsonl"))
        .checksums(List.of(new Checksum("sha-256", "00".repeat(32))))
        .pieces(new PieceHashes("sha-256", 1, List.of("00".repeat(32))))
        .sourceOptions(SourceOptions.builder().connectionsPerSource(3).build())
        .resume(false)
        .ticker(
            () -> {
              throw new AssertionError("ticker set after build() was used");
            })
        .progress(
            p -> {
              throw new AssertionError("progress listener set after build() was called");
            })
        .sourceFactory(
            u -> {
              throw new AssertionError("source factory set after build() was called");
            });
    DownloadReport r = d.run();

    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(out));
    assertEquals("conservative", r.scheme());
    assertEquals(out, r.output());
    assertEquals(
        List.of(a.toUri(), b.toUri()), r.replicas().stream().map(ReplicaReport::uri).toList());
    assertEquals(4, r.events().stream().filter(e -> e.written() > 0).count(), "4 blocks");
    assertTrue(r.events().stream().allMatch(e -> e.connection() == 0), "one connection each");
    assertTrue(Files.exists(journal));
    assertFalse(Files.exists(dir.resolve("elsewhere")));
    assertFalse(Files.exists(dir.resolve("other.jsonl")));
  }

  @Test
  void build_historyWithoutRateForOneSource_failsNamingItBeforeTouchingDisk() throws Exception {
    Download.Builder b =
        Download.builder()
            .sources(List.of(A, B))
            .output(dir.resolve("out"))
            .journal(dir.resolve("journal.jsonl"))
            .scheme(Scheme.historyBased())
            .predictedRates(List.of(new PredictedRate(A, 1e6)));
    IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
    assertEquals(
        "the history scheme needs a predicted rate for every source; none for"
            + " http://b.example/f (give one with predictedRates)",
        e.getMessage());
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(), files.toList());
    }
  }

  @Test
  void build_historyWithoutAnyRate_failsNamingTheFirstSource() {
    Download.Builder b =
        Download.builder()
            .sources(List.of(A, B))
            .output(dir.resolve("out"))
            .scheme(Scheme.historyBased());
    IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
    assertEquals(
        "the history scheme needs a predicted rate for every source; none for"
            + " http://a.example/f (give one with predictedRates)",
        e.getMessage());
  }

  @Test
  void build_historyWithRatesForEverySourceUsed_builds() {
    // maxSources 1 uses only the source with a rate
    Download d =
        Download.builder()
            .sources(List.of(A, B))
            .output(dir.resolve("out"))
            .scheme(Scheme.historyBased())
            .maxSources(1)
            .predictedRates(List.of(new PredictedRate(B, 1e6)))
            .build();
    assertEquals(List.of(B), d.spec().sources());
  }

  @Test
  void build_otherSchemesWithoutRates_build() {
    for (Scheme s :
        List.of(
            Scheme.singleBest(),
            Scheme.bruteForce(),
            Scheme.conservative(3),
            Scheme.aggressive(3),
            Scheme.adaptive())) {
      Download d =
          Download.builder().sources(List.of(A, B)).output(dir.resolve("out")).scheme(s).build();
      assertEquals(s, d.spec().scheme());
    }
  }
}
