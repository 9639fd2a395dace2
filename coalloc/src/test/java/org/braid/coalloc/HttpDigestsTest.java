package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing RFC 3230 Digest and RFC 9530 Repr-Digest answers. */
class HttpDigestsTest {
  // SHA-256, MD5 and Adler-32 of "hello world\n"
  static final String SHA = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447";
  static final String MD5 = "6f5902ac237024bdd0c176cb93063dc4";
  static final String ADLER = "1e3d048c"; // padded hexadecimal

  @Test
  void parse_reprDigest_readsByteSequences() {
    List<Checksum> c =
        HttpDigests.parse(
            "sha-256=:qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7A+4XSmaGSpEc=:, md5=:b1kCrCNwJL3QwXbLkwY9xA==:",
            null);
    assertEquals(List.of(new Checksum("sha-256", SHA), new Checksum("md5", MD5)), c);
  }

  @Test
  void parse_reprDigestAdler_isFourBytesBigEndian() {
    assertEquals(
        List.of(new Checksum("adler32", ADLER)), HttpDigests.parse("adler=:Hj0EjA==:", null));
  }

  @Test
  void parse_digestAdler32_hexWithoutLeadingZerosIsPadded() {
    assertEquals(
        List.of(new Checksum("adler32", "03da0195")), HttpDigests.parse(null, "ADLER32=3DA0195"));
  }

  @Test
  void parse_digestMd5AndSha256_base64OrHex() {
    assertEquals(
        List.of(new Checksum("md5", MD5), new Checksum("sha-256", SHA)),
        HttpDigests.parse(null, "MD5=b1kCrCNwJL3QwXbLkwY9xA==, SHA-256=" + SHA));
  }

  @Test
  void parse_bothHeaders_oneChecksumPerAlgorithm_reprDigestFirst() {
    assertEquals(
        List.of(new Checksum("adler32", ADLER)),
        HttpDigests.parse("adler=:Hj0EjA==:", "adler32=00000001"));
  }

  @Test
  void parse_malformedOrUnknown_skipped() {
    assertEquals(
        List.of(),
        HttpDigests.parse(
            "sha-256=:not base64!:, crc32c=:AAAAAA==:, md5=:AAAA:, garbage",
            "adler32=xyz, UNIXsum=12"));
    assertNull(HttpDigests.digestMember("adler32=123456789"));
  }
}
