package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.zip.Adler32;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checksums the replicas publish over HTTP decide the version and verify the file. */
class PublishedChecksumTest {
  static final int SIZE = 2_000_000;
  @TempDir Path dir;
  Path v1;
  Path v2;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    v1 = TestFiles.random(dir, "v1.bin", SIZE, 21);
    v2 = TestFiles.random(dir, "v2.bin", SIZE, 22); // same size, other content
    out = dir.resolve("out.bin");
  }

  static String adlerHex(Path p) throws Exception {
    Adler32 a = new Adler32();
    a.update(Files.readAllBytes(p));
    return String.format("%08x", a.getValue());
  }

  static String reprSha256(Path p) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p));
    return "sha-256=:" + Base64.getEncoder().encodeToString(d) + ":";
  }

  private DownloadReport download(List<Checksum> sums, Mirror... ms) throws Exception {
    return Download.builder()
        .sources(java.util.Arrays.stream(ms).map(Mirror::uri).toList())
        .output(out)
        .checksums(sums)
        .journal(null)
        .build()
        .run();
  }

  @Test
  void probe_readsDigestAndReprDigest() throws Exception {
    try (Mirror m =
            Mirror.builder(v1)
                .header("Digest", "adler32=" + adlerHex(v1))
                .header("Repr-Digest", reprSha256(v1))
                .start();
        HttpRangeSource s = new HttpRangeSource(m.uri(), SourceOptions.DEFAULT)) {
      Validators v = s.probe();
      assertEquals(adlerHex(v1), v.checksum("adler32").hex());
      assertEquals(64, v.checksum("sha-256").hex().length());
    }
  }

  @Test
  void sameSizeOtherVersion_publishingAnotherChecksum_droppedBeforeAnyByte() throws Exception {
    try (Mirror old = Mirror.builder(v2).header("Digest", "adler32=" + adlerHex(v2)).start();
        Mirror a = Mirror.builder(v1).header("Digest", "adler32=" + adlerHex(v1)).start();
        Mirror b =
            Mirror.builder(v1).header("Repr-Digest", "adler=:" + adlerB64(v1) + ":").start()) {
      DownloadReport r = download(List.of(), old, a, b);
      assertArrayEquals(Files.readAllBytes(v1), Files.readAllBytes(out));
      assertTrue(r.replicas().get(0).dropped().contains("another version"), r.toString());
      assertEquals(0, r.replicas().get(0).bytes());
      assertEquals(1, old.requests(), "only the probe");
      assertEquals(adlerHex(v1), r.digests().get("adler32"));
    }
  }

  @Test
  void explicitChecksum_winsOverThePublishedMajority() throws Exception {
    String sha;
    sha =
        java.util.HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(v2)));
    try (Mirror old = Mirror.builder(v2).header("Repr-Digest", reprSha256(v2)).start();
        Mirror a = Mirror.builder(v1).header("Repr-Digest", reprSha256(v1)).start();
        Mirror b = Mirror.builder(v1).header("Repr-Digest", reprSha256(v1)).start()) {
      DownloadReport r = download(List.of(new Checksum("sha256", sha)), old, a, b);
      assertArrayEquals(Files.readAllBytes(v2), Files.readAllBytes(out));
      assertNull(r.replicas().get(0).dropped());
      assertTrue(r.replicas().get(1).dropped().endsWith("expected " + sha), r.toString());
    }
  }

  @Test
  void replicaWithoutChecksumServesOtherVersion_mixedFileRejected() throws Exception {
    try (Mirror silentOld = Mirror.builder(v2).rate(4e6).start();
        Mirror a =
            Mirror.builder(v1).rate(4e6).header("Digest", "adler32=" + adlerHex(v1)).start()) {
      DownloadException e =
          assertThrows(DownloadException.class, () -> download(List.of(), silentOld, a));
      assertTrue(
          e.getMessage().startsWith("adler32 checksum mismatch: the replicas publish"),
          e.getMessage());
      assertFalse(Files.exists(out));
    }
  }

  static String adlerB64(Path p) throws Exception {
    Adler32 a = new Adler32();
    a.update(Files.readAllBytes(p));
    long v = a.getValue();
    byte[] b = {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    return Base64.getEncoder().encodeToString(b);
  }
}
