package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code braid get --metalink} and {@code --catalog}: replicas, size and hashes from a catalog. */
class GetFromCatalogTest {
  @TempDir Path dir;

  private Path data;
  private String sha;

  private Path data(int size) throws Exception {
    byte[] b = new byte[size];
    new SplittableRandom(5).nextBytes(b);
    data = dir.resolve("data.bin");
    Files.write(data, b);
    sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    return data;
  }

  private Path metalink(String hash, String... urls) throws Exception {
    return metalinkTyped("sha-256", hash, urls);
  }

  private Path metalinkTyped(String type, String hash, String... urls) throws Exception {
    StringBuilder x =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
                + "  <file name=\"data.bin\">\n"
                + "    <size>"
                + Files.size(data)
                + "</size>\n"
                + "    <hash type=\""
                + type
                + "\">"
                + hash
                + "</hash>\n");
    int p = 1;
    for (String u : urls) {
      x.append("    <url priority=\"").append(p++).append("\">").append(u).append("</url>\n");
    }
    x.append("  </file>\n</metalink>\n");
    Path m = dir.resolve("data.meta4");
    Files.writeString(m, x);
    return m;
  }

  @Test
  void metalink_withBroker_downloadsAndVerifiesTheCatalogsHash() throws Exception {
    data(1_500_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).rate(4e6).start();
        Mirror b = Mirror.builder(data).rate(2e6).start()) {
      Path m = metalink(sha, a.uri().toString(), b.uri().toString());
      // no information provider answers on 127.0.0.1: the broker plans equal shares
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              m.toString(),
              "-o",
              out.toString(),
              "--json",
              "--no-journal",
              "--discovery-timeout",
              "0.5",
              "--provider-port",
              "9");
      assertEquals(0, r.code(), r.err());
      JsonNode n = new ObjectMapper().readTree(r.out());
      assertEquals(sha, n.get("sha256").asText());
      assertEquals(2, n.get("replicas").size());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    }
  }

  @Test
  void metalink_withoutBroker_usesTheCatalogOrder() throws Exception {
    data(800_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).start()) {
      Path m = metalink(sha, a.uri().toString());
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              m.toString(),
              "-o",
              out.toString(),
              "--json",
              "--no-journal",
              "--discovery-timeout",
              "0");
      assertEquals(0, r.code(), r.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    }
  }

  private Path metalinkWithPieces(String type, int length, String pieceAlgo, String... urls)
      throws Exception {
    byte[] b = Files.readAllBytes(data);
    StringBuilder x =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
                + "  <file name=\"data.bin\">\n"
                + "    <size>"
                + b.length
                + "</size>\n"
                + "    <pieces length=\""
                + length
                + "\" type=\""
                + type
                + "\">\n");
    for (int s = 0; s < b.length; s += length) {
      String h = "0".repeat(64);
      if (pieceAlgo != null) {
        MessageDigest md = MessageDigest.getInstance(pieceAlgo);
        md.update(b, s, Math.min(length, b.length - s));
        h = HexFormat.of().formatHex(md.digest());
      }
      x.append("      <hash>").append(h).append("</hash>\n");
    }
    x.append("    </pieces>\n");
    for (String u : urls) {
      x.append("    <url>").append(u).append("</url>\n");
    }
    x.append("  </file>\n</metalink>\n");
    Path m = dir.resolve("pieces.meta4");
    Files.writeString(m, x);
    return m;
  }

  @Test
  void metalinkPieces_corruptReplica_refetchesBadPieceAndCountsItsFailure() throws Exception {
    data(2_000_000);
    Path out = dir.resolve("out.bin");
    try (Mirror bad = Mirror.builder(data).fault(Mirror.Fault.CORRUPT).faultAfter(200_000).start();
        Mirror good = Mirror.builder(data).start()) {
      Path m =
          metalinkWithPieces(
              "sha-256", 100_000, "SHA-256", bad.uri().toString(), good.uri().toString());
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              m.toString(),
              "-o",
              out.toString(),
              "--json",
              "--no-journal",
              "--discovery-timeout",
              "0",
              "--scheme",
              "brute");
      assertEquals(0, r.code(), r.err());
      assertEquals("", r.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
      JsonNode n = new ObjectMapper().readTree(r.out());
      assertEquals(sha, n.get("sha256").asText());
      JsonNode first = n.get("replicas").get(0);
      assertTrue(first.get("failures").asInt() > 0 || !first.get("dropped").isNull(), r.out());
    }
  }

  @Test
  void metalinkPieces_unknownType_refusedBeforeAnythingIsFetched() throws Exception {
    data(300_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).start()) {
      Path m = metalinkWithPieces("tiger", 100_000, null, a.uri().toString());
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              m.toString(),
              "-o",
              out.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0");
      assertEquals(2, r.code(), r.err());
      assertEquals(
          "braid: "
              + m
              + ": file data.bin: piece hashes: unknown piece hash algorithm"
              + " 'tiger' (use sha-256, sha-1, sha-512, md5 or adler32)\n",
          r.err());
      assertFalse(Files.exists(out));
      assertEquals(0, a.requests());
    }
  }

  @Test
  void metalink_wrongHash_failsAndLeavesNoOutput() throws Exception {
    data(500_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).start()) {
      String wrong = "0".repeat(64);
      Path m = metalink(wrong, a.uri().toString());
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              m.toString(),
              "-o",
              out.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0");
      assertEquals(5, r.code(), r.out());
      assertTrue(r.err().startsWith("braid: "), r.err());
      assertTrue(r.err().toLowerCase(java.util.Locale.ROOT).contains("sha-256"), r.err());
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void metalink_sha512_isVerified() throws Exception {
    data(400_000);
    String sha512 =
        HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-512").digest(Files.readAllBytes(data)));
    try (Mirror a = Mirror.builder(data).start()) {
      Path good = dir.resolve("good.bin");
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--metalink",
              metalinkTyped("sha-512", sha512, a.uri().toString()).toString(),
              "-o",
              good.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0");
      assertEquals(0, r.code(), r.err());
      assertEquals("", r.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(good));
      Path bad = dir.resolve("bad.bin");
      r =
          GetCommandTest.run(
              "get",
              "--metalink",
              metalinkTyped("sha-512", "1".repeat(128), a.uri().toString()).toString(),
              "-o",
              bad.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0");
      assertEquals(5, r.code(), r.out());
      assertTrue(r.err().contains("sha-512"), r.err());
      assertFalse(Files.exists(bad));
    }
  }

  @Test
  void catalog_namesTheLogicalFile() throws Exception {
    data(300_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).start()) {
      Path c = dir.resolve("catalog.json");
      Files.writeString(
          c, "{\"files\": {\"run42/data.bin\": {\"replicas\": [\"" + a.uri() + "\"]}}}");
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "--catalog",
              c.toString(),
              "run42/data.bin",
              "-o",
              out.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0",
              "--checksum",
              "sha256:" + sha);
      assertEquals(0, r.code(), r.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
    }
  }

  @Test
  void urlsAndMetalinkTogether_exitTwo() throws Exception {
    data(10);
    Path m = metalink(sha, "http://127.0.0.1:9/data.bin");
    GetCommandTest.Run r =
        GetCommandTest.run("get", "http://127.0.0.1:9/x", "--metalink", m.toString(), "-o", "o");
    assertEquals(2, r.code());
    assertEquals(
        "braid: give replica URLs, --metalink FILE or --catalog FILE NAME (exactly one)\n",
        r.err());
  }

  @Test
  void hostileMetalink_isAOneLineError() throws Exception {
    Path m = dir.resolve("evil.meta4");
    Files.writeString(
        m,
        "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
            + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url>&x;</url></file></metalink>");
    GetCommandTest.Run r =
        GetCommandTest.run("get", "--metalink", m.toString(), "-o", dir.resolve("o").toString());
    assertEquals(2, r.code());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("braid: "), r.err());
  }
}
