package org.braid.broker.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogsTest {

  @TempDir Path dir;

  static final String ML =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
          + "  <published>2009-05-15T12:23:23Z</published>\n"
          + "  <file name=\"data/run42.h5\">\n"
          + "    <size>14471447</size>\n"
          + "    <identity>Example</identity>\n"
          + "    <hash type=\"sha-256\">F0AD929CD259957E160EA442EB80986B5F01</hash>\n"
          + "    <pieces length=\"262144\" type=\"sha-1\">\n"
          + "      <hash>aaaa</hash>\n"
          + "      <hash>bbbb</hash>\n"
          + "    </pieces>\n"
          + "    <url location=\"de\" priority=\"5\">ftp://ftp.example.com/example.ext</url>\n"
          + "    <url location=\"fr\" priority=\"1\">http://example.com/example.ext</url>\n"
          + "    <url>gsiftp://gridftp.example.org/example.ext</url>\n"
          + "    <metaurl mediatype=\"torrent\" priority=\"2\">http://example.com/example.ext.torrent</metaurl>\n"
          + "  </file>\n"
          + "</metalink>\n";

  ReplicaCatalog ml(String xml) throws CatalogException {
    return Catalogs.parseMetalink(
        xml.getBytes(StandardCharsets.UTF_8), "t.meta4", CatalogLimits.DEFAULT);
  }

  CatalogException mlError(String xml) {
    return assertThrows(CatalogException.class, () -> ml(xml));
  }

  @Test
  void metalink_rfcExample_readsSizeHashesPiecesAndUrlsByPriority() throws Exception {
    CatalogFile f = ml(ML).single();
    assertEquals("data/run42.h5", f.name());
    assertEquals(14471447, f.size());
    assertEquals("f0ad929cd259957e160ea442eb80986b5f01", f.hashes().get("sha-256"));
    assertEquals("sha-1", f.pieces().type());
    assertEquals(262144, f.pieces().length());
    assertEquals(List.of("aaaa", "bbbb"), f.pieces().hashes());
    assertEquals(3, f.replicas().size());
    assertEquals(URI.create("http://example.com/example.ext"), f.replicas().get(0).uri());
    assertEquals("fr", f.replicas().get(0).location());
    assertEquals(1, f.replicas().get(0).priority());
    assertEquals(5, f.replicas().get(1).priority());
    assertEquals(Replica.NO_PRIORITY, f.replicas().get(2).priority());
    assertEquals(2811, f.replicas().get(2).port());
  }

  @Test
  void metalink_externalEntity_refusedWithoutReadingTheFile() throws Exception {
    Path secret = dir.resolve("secret.txt");
    Files.writeString(secret, "TOPSECRET");
    CatalogException e =
        mlError(
            "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \""
                + secret.toUri()
                + "\">]>"
                + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url>http://h/&x;</url></file></metalink>");
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    assertTrue(!e.getMessage().contains("TOPSECRET"));
  }

  @Test
  void metalink_billionLaughs_refused() {
    StringBuilder sb =
        new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">");
    for (int i = 1; i < 10; i++) {
      sb.append("<!ENTITY a")
          .append(i)
          .append(" \"&a")
          .append(i == 1 ? "" : String.valueOf(i - 1))
          .append(";".repeat(1))
          .append("\">");
    }
    sb.append(
        "]><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"&a9;\"/></metalink>");
    CatalogException e = mlError(sb.toString());
    assertTrue(e.getMessage().startsWith("t.meta4"), e.getMessage());
  }

  @Test
  void metalink_xinclude_notProcessed() throws Exception {
    CatalogFile f =
        ml("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                + "<file name=\"a\"><xi:include href=\"/etc/passwd\" parse=\"text\"/><url>http://h/a</url></file></metalink>")
            .single();
    assertEquals(1, f.replicas().size());
    assertEquals(-1, f.size());
  }

  @Test
  void metalink_pathTraversalInName_rejectedWithName() {
    for (String bad :
        List.of("../../etc/passwd", "/etc/passwd", "a/../../b", "a\\..\\b", "C:/x", "a//b")) {
      CatalogException e =
          mlError(
              "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\""
                  + bad
                  + "\"><url>http://h/a</url></file></metalink>");
      assertTrue(e.getMessage().startsWith("t.meta4:1: file name"), bad + " -> " + e.getMessage());
    }
  }

  @Test
  void metalink_tooLarge_rejectedBeforeParsing() {
    byte[] big = new byte[2000];
    CatalogException e =
        assertThrows(
            CatalogException.class,
            () -> Catalogs.parseMetalink(big, "big.meta4", new CatalogLimits(1000, 10, 10, 10)));
    assertEquals("big.meta4: larger than 1000 bytes", e.getMessage());
  }

  @Test
  void metalink_tooManyUrls_rejected() {
    String xml =
        "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\">"
            + "<url>http://h/a</url>".repeat(3)
            + "</file></metalink>";
    CatalogException e =
        assertThrows(
            CatalogException.class,
            () ->
                Catalogs.parseMetalink(
                    xml.getBytes(StandardCharsets.UTF_8),
                    "m",
                    new CatalogLimits(1 << 20, 10, 2, 10)));
    assertTrue(e.getMessage().contains("more than 2 URLs"), e.getMessage());
  }

  @Test
  void metalink_badInput_clearErrors() {
    assertTrue(
        mlError("<metalink xmlns=\"http://www.metalinker.org/\"/>")
            .getMessage()
            .contains("not Metalink 4"));
    assertTrue(mlError("<foo/>").getMessage().contains("not <metalink>"));
    assertTrue(
        mlError("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\">")
            .getMessage()
            .contains("malformed Metalink"));
    assertTrue(mlError("").getMessage().contains("malformed Metalink"));
    assertEquals(
        "t.meta4: Metalink lists no file",
        mlError("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"/>").getMessage());
    assertTrue(
        mlError(
                "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><size>-3</size></file></metalink>")
            .getMessage()
            .contains("size is not a non-negative integer: -3"));
    assertTrue(
        mlError(
                "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url priority=\"0\">http://h/a</url></file></metalink>")
            .getMessage()
            .contains("priority must be 1..999999: 0"));
    assertTrue(
        mlError(
                "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url>javascript:alert(1)</url></file></metalink>")
            .getMessage()
            .contains("scheme must be one of"));
    assertTrue(
        mlError(
                "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><hash type=\"md5\">xyz</hash></file></metalink>")
            .getMessage()
            .contains("not hexadecimal"));
  }

  @Test
  void parseUrl_invalid_namesPlaceAndProblem() {
    assertEquals(
        "f:3: invalid URL http:// bad: Illegal character in authority",
        assertThrows(CatalogException.class, () -> Catalogs.parseUrl("http:// bad", "f:3"))
            .getMessage());
    assertTrue(
        assertThrows(CatalogException.class, () -> Catalogs.parseUrl("http://user:pw@h/a", "x"))
            .getMessage()
            .contains("credentials"));
    assertTrue(
        assertThrows(CatalogException.class, () -> Catalogs.parseUrl("http://h", "x"))
            .getMessage()
            .contains("no file path"));
    assertTrue(
        assertThrows(CatalogException.class, () -> Catalogs.parseUrl("http://h/a\nb", "x"))
            .getMessage()
            .contains("control characters"));
    assertThrows(IllegalArgumentException.class, () -> Replica.of("nope"));
  }

  @Test
  void yamlCatalog_readsFilesReplicasAndProviders() throws Exception {
    Path p = dir.resolve("cat.yaml");
    Files.writeString(
        p,
        "files:\n"
            + "  run42.h5:\n"
            + "    size: 2000\n"
            + "    hashes: {sha-256: ABCD}\n"
            + "    replicas:\n"
            + "      - http://a.example.org/data/run42.h5\n"
            + "      - url: gsiftp://b.example.org/run42.h5\n"
            + "        priority: 1\n"
            + "        location: DE\n"
            + "        provider: http://b.example.org:8790/v1/ads\n"
            + "  small.dat: [http://a.example.org/small.dat]\n"
            + "providers:\n"
            + "  a.example.org: http://a.example.org:9000/v1/ads\n");
    ReplicaCatalog c = Catalogs.read(p);
    CatalogFile f = c.file("run42.h5");
    assertEquals(2000, f.size());
    assertEquals("abcd", f.hashes().get("sha-256"));
    assertEquals(URI.create("gsiftp://b.example.org/run42.h5"), f.replicas().get(0).uri());
    assertEquals("de", f.replicas().get(0).location());
    assertEquals(URI.create("http://b.example.org:8790/v1/ads"), f.replicas().get(0).provider());
    assertNull(f.replicas().get(1).provider());
    assertEquals(1, c.file("small.dat").replicas().size());
    assertEquals(
        URI.create("http://a.example.org:9000/v1/ads"), c.providers().get("a.example.org"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> c.file("x"))
            .getMessage()
            .startsWith("catalog has no file named x (it has: run42.h5, small.dat)"));
  }

  @Test
  void jsonCatalog_hostileInput_clearErrors() throws Exception {
    String[][] cases = {
      {"{\"files\": {\"a\": {\"size\": NaN, \"replicas\": [\"http://h/a\"]}}}", "malformed JSON"},
      {
        "{\"files\": {\"a\": {\"size\": 1e400, \"replicas\": [\"http://h/a\"]}}}",
        "size must be a non-negative integer"
      },
      {"{\"files\": {\"../x\": [\"http://h/a\"]}}", "path traversal"},
      {
        "{\"files\": {\"a\": [\"ftp://h/a\", \"mailto:x@y\"]}}", "replica 2: invalid URL mailto:x@y"
      },
      {"[1,2]", "catalog must be an object"},
      {"{\"files\": {}}", "non-empty map"},
      {"{\"files\": {\"a\": []}}", "no replica"},
      {"{\"files\": {\"a\": [\"http://h/a\"]}, \"colour\": 1}", "unknown key 'colour'"},
      {"[".repeat(5000), "malformed JSON"},
      {"{\"files\": {\"a\": [" + "1".repeat(100) + "]}}", "malformed JSON"},
    };
    for (String[] c : cases) {
      Path p = dir.resolve("c.json");
      Files.writeString(p, c[0]);
      CatalogException e = assertThrows(CatalogException.class, () -> Catalogs.read(p), c[0]);
      assertTrue(
          e.getMessage().startsWith(p.toString()) && e.getMessage().contains(c[1]),
          c[0] + " -> " + e.getMessage());
    }
  }

  @Test
  void duplicateNames_refusedInJsonYamlAndMetalink() throws Exception {
    String[][] cases = {
      {"c.json", "{\"files\": {\"a\": [\"http://h/1\"], \"a\": [\"http://evil/1\"]}}", "'a'"},
      {"c.yaml", "files:\n  a: [http://h/1]\n  a: [http://evil/1]\n", "'a'"},
      {
        "c.json",
        "{\"files\": {\"a\": {\"hashes\": {\"sha-256\": \"aa\", \"SHA-256\": \"bb\"},"
            + " \"replicas\": [\"http://h/1\"]}}}",
        "hash SHA-256 listed twice"
      },
      {
        "c.json",
        "{\"files\": {\"a\": [\"http://h/1\"]},"
            + " \"providers\": {\"h\": \"http://h:8790/v1/ads\", \"H\": \"http://x/\"}}",
        "provider H: listed twice"
      },
    };
    for (String[] c : cases) {
      Path p = dir.resolve(c[0]);
      Files.writeString(p, c[1]);
      CatalogException e = assertThrows(CatalogException.class, () -> Catalogs.read(p), c[1]);
      assertTrue(
          e.getMessage().startsWith(p.toString()) && e.getMessage().contains(c[2]),
          c[1] + " -> " + e.getMessage());
    }
    String twice = ML.replace("<identity>", "<hash type=\"SHA-256\">00</hash>\n    <identity>");
    assertTrue(mlError(twice).getMessage().contains("hash sha-256 listed twice"));
  }

  @Test
  void yamlCatalog_aliasBomb_refused() throws Exception {
    StringBuilder y = new StringBuilder("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
    for (int i = 1; i < 9; i++) {
      char prev = (char) ('a' + i - 1);
      char cur = (char) ('a' + i);
      y.append(cur).append(": &").append(cur).append(" [");
      y.append(String.join(",", java.util.Collections.nCopies(10, "*" + prev))).append("]\n");
    }
    Path p = dir.resolve("bomb.yaml");
    Files.writeString(p, y.toString());
    assertThrows(CatalogException.class, () -> Catalogs.read(p));
  }

  @Test
  void urlList_commentsAndBlankLines_skipped_badLineNamed() throws Exception {
    Path p = dir.resolve("mirrors.txt");
    Files.writeString(p, "# mirrors\nhttp://a/x.bin\n\n  gsiftp://b/x.bin  \n");
    CatalogFile f = Catalogs.read(p).single();
    assertEquals("mirrors.txt", f.name());
    assertEquals(2, f.replicas().size());
    Files.writeString(p, "http://a/x.bin\nhttp//b\n");
    CatalogException e = assertThrows(CatalogException.class, () -> Catalogs.read(p));
    assertTrue(e.getMessage().startsWith(p + ":2: invalid URL http//b"), e.getMessage());
    assertTrue(
        assertThrows(CatalogException.class, () -> Catalogs.read(dir.resolve("none.txt")))
            .getMessage()
            .endsWith("no such file"));
  }
}
