package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Argument checks and parsing of the public value types. */
class ValuesTest {
  static String message(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void checksum_parseNormalisesAlgorithmAndCase() {
    Checksum c = Checksum.parse("SHA256:" + "AB".repeat(32));
    assertEquals("sha-256", c.algorithm());
    assertEquals("ab".repeat(32), c.hex());
    assertEquals("adler32", Checksum.parse("adler-32:0000ffff").algorithm());
  }

  @Test
  void checksum_badInput_namesTheProblem() {
    assertEquals(
        "checksum must look like algo:hex (sha256, sha1, md5 or adler32): 'abc'",
        message(() -> Checksum.parse("abc")));
    assertEquals(
        "unknown checksum algorithm 'crc' (use sha256, sha512, sha1, md5 or adler32)",
        message(() -> Checksum.parse("crc:00")));
    assertEquals(
        "md5 checksum must be 32 hexadecimal digits: 'xyz'",
        message(() -> Checksum.parse("md5:xyz")));
    // the right length, a character that is not a hexadecimal digit
    String g = "0".repeat(31) + "g";
    assertEquals(
        "md5 checksum must be 32 hexadecimal digits: '" + g + "'",
        message(() -> Checksum.parse("md5:" + g)));
  }

  @Test
  void datasetFile_sameSourceTwice_whateverTheCaseOfSchemeAndHost() {
    URI a = URI.create("http://mirror.example:8080/d/f");
    for (String twin :
        new String[] {"HTTP://Mirror.Example:8080/d/f", "http://mirror.example:8080/d/f"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> DatasetFile.of("f", 1, List.of(a, URI.create(twin))));
      assertTrue(e.getMessage().contains("listed twice"), e.getMessage());
    }
    // another port or host is another source
    assertEquals(
        3,
        DatasetFile.of(
                "f",
                1,
                List.of(
                    a,
                    URI.create("http://mirror.example:8081/d/f"),
                    URI.create("http://other.example:8080/d/f")))
            .sources()
            .size());
  }

  @Test
  void scheme_parseKnowsEveryName() {
    for (String n :
        List.of("single", "brute", "history", "conservative", "aggressive", "adaptive")) {
      assertEquals(n, Scheme.parse(n, 5).name());
    }
    assertEquals(5, Scheme.parse("aggressive", 5).blocks());
    assertEquals("block count must be positive: 0", message(() -> Scheme.conservative(0)));
  }

  @Test
  void predictedRate_mustBePositive() {
    assertEquals(
        "predicted rate for http://a/f must be positive: 0.0",
        message(() -> new PredictedRate(URI.create("http://a/f"), 0)));
  }

  @Test
  void validators_sameVersionComparesOnlyKnownValidators() {
    Validators a = new Validators(10, "\"x\"", null);
    assertTrue(a.sameVersion(new Validators(10, null, "Mon")));
    assertFalse(a.sameVersion(new Validators(10, "\"y\"", null)));
    assertFalse(a.sameVersion(new Validators(11, "\"x\"", null)));
    assertEquals(
        "file size must not be negative: -1", message(() -> new Validators(-1, null, null)));
  }

  @Test
  void sourceOptions_checkRanges() {
    assertEquals(
        "connections per source must be in 1..16: 0",
        message(() -> SourceOptions.builder().connectionsPerSource(0)));
    assertEquals(
        "stall timeout must be positive: PT0S",
        message(() -> SourceOptions.builder().stallTimeout(Duration.ZERO)));
  }

  @Test
  void downloadBuilder_checksSources() {
    assertEquals(
        "at least one source URL is needed", message(() -> Download.builder().sources(List.of())));
    URI u = URI.create("http://a/f");
    assertEquals(
        "a source URL is listed twice: [http://a/f, http://a/f]",
        message(() -> Download.builder().sources(List.of(u, u))));
    assertEquals(
        "max sources must be positive: 0", message(() -> Download.builder().maxSources(0)));
    assertThrows(
        IllegalStateException.class, () -> Download.builder().output(Path.of("x")).build());
  }

  @Test
  void download_maxSources_prefersFastestPredicted() {
    URI a = URI.create("http://a/f");
    URI b = URI.create("http://b/f");
    URI c = URI.create("http://c/f");
    Download.Builder d =
        Download.builder()
            .sources(List.of(a, b, c))
            .maxSources(2)
            .predictedRates(List.of(new PredictedRate(c, 9e6), new PredictedRate(a, 1e6)))
            .output(Path.of("x"));
    assertEquals(List.of(c, a), d.build().spec().sources());
  }

  @Test
  void history_withoutPredictions_isRejected() {
    Simulator.Mirror m = new Simulator.Mirror(t -> 1e6, 0.001, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Simulator.run(1000, List.of(m), 1, Scheme.historyBased(), false, 10));
    assertEquals(
        "the history-based scheme needs a predicted rate for every replica; none for"
            + " http://m0/f",
        e.getMessage());
  }

  @Test
  void rangeSource_unsupportedScheme_isRejected() {
    assertEquals(
        "unsupported URL scheme 'sftp' in sftp://h/f (use http, https, davs, gsiftp, ftp, root,"
            + " roots or file)",
        message(() -> RangeSource.of(URI.create("sftp://h/f"), SourceOptions.DEFAULT)));
  }
}
