package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which version the replicas' published checksums decide on, and who is dropped. */
class SourceChecksumsTest {
  static final URI A = URI.create("http://a/f");
  static final URI B = URI.create("http://b/f");
  static final URI C = URI.create("http://c/f");

  static Validators v(Checksum... c) {
    return new Validators(10, null, null, true, List.of(c));
  }

  static Checksum adler(String hex) {
    return new Checksum("adler32", hex);
  }

  static Map<URI, Validators> probed(Validators a, Validators b, Validators c) {
    Map<URI, Validators> m = new LinkedHashMap<>();
    m.put(A, a);
    m.put(B, b);
    m.put(C, c);
    return m;
  }

  @Test
  void agree_majorityWins_otherVersionDroppedWithReason() {
    var r =
        SourceChecksums.agree(
            List.of(), probed(v(adler("00000001")), v(adler("00000002")), v(adler("00000002"))));
    assertEquals(List.of(adler("00000002")), r.published());
    assertEquals(Set.of(A), r.dropped().keySet());
    assertEquals(
        A
            + ": another version of the file: publishes adler32 00000001, the other replicas"
            + " publish 00000002",
        r.dropped().get(A));
  }

  @Test
  void agree_tie_earliestReplicaWins() {
    var r =
        SourceChecksums.agree(List.of(), probed(v(adler("00000001")), v(adler("00000002")), v()));
    assertEquals(List.of(adler("00000001")), r.published());
    assertEquals(Set.of(B), r.dropped().keySet());
  }

  @Test
  void agree_explicitChecksumWins_evenAgainstTheMajority() {
    var r =
        SourceChecksums.agree(
            List.of(adler("00000001")),
            probed(v(adler("00000001")), v(adler("00000002")), v(adler("00000002"))));
    assertEquals(List.of(), r.published(), "the user's checksum is verified, not a second one");
    assertEquals(Set.of(B, C), r.dropped().keySet());
    assertTrue(r.dropped().get(B).endsWith("expected 00000001"), r.dropped().get(B));
  }

  @Test
  void agree_differentAlgorithms_allKeptAndAllVerified() {
    Checksum md5 = new Checksum("md5", "6f5902ac237024bdd0c176cb93063dc4");
    var r = SourceChecksums.agree(List.of(), probed(v(adler("00000001")), v(md5), v()));
    assertEquals(List.of(md5, adler("00000001")), r.published());
    assertEquals(Map.of(), r.dropped());
  }
}
