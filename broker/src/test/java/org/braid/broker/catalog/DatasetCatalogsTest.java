package org.braid.broker.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Catalogs as datasets: selections, named datasets, aria2 input lists, checksum lists. */
class DatasetCatalogsTest {

  static final String CATALOG =
      "files:\n"
          + "  run42/a.h5: [http://a/run42/a.h5, http://b/run42/a.h5]\n"
          + "  run42/sub/b.h5: [http://a/run42/sub/b.h5]\n"
          + "  run43/c.h5: [http://a/run43/c.h5]\n"
          + "  notes.txt: [http://a/notes.txt]\n"
          + "datasets:\n"
          + "  run42: [\"run42/**\"]\n"
          + "  docs: [notes.txt]\n";

  private static ReplicaCatalog yaml(String y) throws CatalogException {
    return Catalogs.parseCatalog(
        y.getBytes(StandardCharsets.UTF_8), "c.yaml", false, CatalogLimits.DEFAULT);
  }

  private static List<String> names(List<CatalogFile> fs) {
    return fs.stream().map(CatalogFile::name).toList();
  }

  @Test
  void select_byNameDatasetOrGlob_inCatalogOrder() throws Exception {
    ReplicaCatalog c = yaml(CATALOG);
    assertEquals(4, c.select(List.of()).size());
    assertEquals(List.of("run42/a.h5", "run42/sub/b.h5"), names(c.select(List.of("run42"))));
    assertEquals(
        List.of("run42/a.h5", "run42/sub/b.h5", "notes.txt"),
        names(c.select(List.of("docs", "run42"))));
    assertEquals(List.of("run42/a.h5", "run43/c.h5"), names(c.select(List.of("*/*.h5"))));
    assertEquals(List.of("run43/c.h5"), names(c.select(List.of("run43/c.h5"))));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> c.select(List.of("run99*")));
    assertTrue(e.getMessage().contains("no file or dataset of the catalog matches run99*"));
    assertTrue(e.getMessage().contains("datasets: run42, docs"), e.getMessage());
  }

  @Test
  void datasets_mustBeListsOfNames() {
    CatalogException e =
        assertThrows(
            CatalogException.class, () -> yaml("files:\n  a: [http://a/a]\ndatasets:\n  d: 5\n"));
    assertTrue(e.getMessage().contains("dataset d: must be a non-empty list"), e.getMessage());
  }

  @Test
  void metalinkWithManyFiles_selectsAllOrAGlob() throws Exception {
    StringBuilder ml =
        new StringBuilder(
            "<?xml version=\"1.0\"?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">");
    for (String n : List.of("d/x 1.bin", "d/y.bin", "e/z.bin")) {
      ml.append("<file name=\"")
          .append(n)
          .append("\"><size>5</size>")
          .append("<url>http://a/")
          .append(n.replace(" ", "%20"))
          .append("</url></file>");
    }
    ml.append("</metalink>");
    ReplicaCatalog c =
        Catalogs.parseMetalink(
            ml.toString().getBytes(StandardCharsets.UTF_8), "m.meta4", CatalogLimits.DEFAULT);
    assertEquals(3, c.select(List.of()).size());
    assertEquals(List.of("d/x 1.bin", "d/y.bin"), names(c.select(List.of("d/*"))));
  }

  @Test
  void inputList_aria2Format_urlsOutDirAndChecksums() throws Exception {
    String list =
        "# a comment\n"
            + "http://a/data/f1.bin\thttp://b/mirror/f1.bin\n"
            + "  out=run 1/first.bin\n"
            + "  checksum=sha-256="
            + "ab".repeat(32)
            + "\n"
            + "  split=5\n"
            + "\n"
            + "http://a/data/%C3%BC%20x.bin gsiftp://c/data/u.bin\n"
            + "\tdir=sub\n"
            + "http://a/data/plain.bin\n";
    ReplicaCatalog c = Catalogs.parseInputList(list, "in.txt", CatalogLimits.DEFAULT);
    assertEquals(
        List.of("run 1/first.bin", "sub/ü x.bin", "plain.bin"), List.copyOf(c.files().keySet()));
    CatalogFile f1 = c.file("run 1/first.bin");
    assertEquals(
        List.of(URI.create("http://a/data/f1.bin"), URI.create("http://b/mirror/f1.bin")),
        f1.replicas().stream().map(Replica::uri).toList());
    assertEquals(Map.of("sha-256", "ab".repeat(32)), f1.hashes());
    assertEquals(2, c.file("sub/ü x.bin").replicas().size());
    // the same list with CRLF line ends and no final line end reads the same
    String crlf = list.replace("\n", "\r\n");
    ReplicaCatalog d =
        Catalogs.parseInputList(
            crlf.substring(0, crlf.length() - 2), "in.txt", CatalogLimits.DEFAULT);
    assertEquals(List.copyOf(c.files().keySet()), List.copyOf(d.files().keySet()));
    assertEquals(f1.hashes(), d.file("run 1/first.bin").hashes());
    CatalogException e =
        assertThrows(
            CatalogException.class,
            () ->
                Catalogs.parseInputList(
                    "http://a/x\r\n\r\n  bogus=1\r\n", "in.txt", CatalogLimits.DEFAULT));
    assertTrue(e.getMessage().startsWith("in.txt:3:"), e.getMessage());
  }

  private static final CatalogLimits TWO_URLS = new CatalogLimits(16L << 20, 100_000, 2, 1_000_000);

  @Test
  void inputList_badLines_nameTheLine() {
    CatalogLimits limits = TWO_URLS;
    for (String[] c : BAD_LINES) {
      CatalogException e =
          assertThrows(
              CatalogException.class, () -> Catalogs.parseInputList(c[0], "in.txt", limits), c[0]);
      assertTrue(e.getMessage().startsWith(c[1]), e.getMessage());
      assertTrue(e.getMessage().contains(c[2]), e.getMessage());
    }
  }

  @Test
  void inputList_readEntryByEntry_givesTheSameFilesAndErrorsWhenItGetsThere(@TempDir Path dir)
      throws Exception {
    String good =
        "http://a/0\n  out=zero\nhttp://a/1 http://b/1\n  checksum=sha-256="
            + "ab".repeat(32)
            + "\n";
    for (String[] c : BAD_LINES) {
      // after two good entries: the same error as a whole parse (or the same files, where the
      // line is good there), found when the reading gets to it
      String text = good + c[0];
      Path f = Files.writeString(dir.resolve("in.txt"), text);
      String wholeError = null;
      List<String> whole = null;
      try {
        whole = List.copyOf(Catalogs.parseInputList(text, f.toString(), TWO_URLS).files().keySet());
      } catch (CatalogException e) {
        wholeError = e.getMessage();
      }
      String error = null;
      List<String> read = new ArrayList<>();
      CatalogEntries entries = Catalogs.openInputList(f, TWO_URLS);
      try {
        for (CatalogFile x = entries.next(); x != null; x = entries.next()) {
          read.add(x.name());
        }
      } catch (CatalogException e) {
        error = e.getMessage();
      }
      assertEquals(wholeError, error, c[0]);
      if (whole != null) {
        assertEquals(whole, read, c[0]);
      } else {
        int n = Math.min(2, read.size()); // the entries before the bad line were read
        assertEquals(List.of("zero", "1").subList(0, n), read.subList(0, n), c[0]);
      }
    }
    Path empty = Files.writeString(dir.resolve("empty.txt"), "\n# nothing\n");
    CatalogException e =
        assertThrows(CatalogException.class, () -> Catalogs.openInputList(empty, TWO_URLS).next());
    assertEquals(empty + ": no URL in the list", e.getMessage());
  }

  private static final String[][] BAD_LINES = {
    {"http://a/x\n  out=../../etc/passwd\n", "in.txt:1", "path traversal"},
    {"http://a/x\n  bogus=1\n", "in.txt:2", "unknown option 'bogus'"},
    {"  out=x\n", "in.txt:1", "before the first URL"},
    {"http://a/x\n  checksum=sha-256\n", "in.txt:2", "TYPE=HEX"},
    {"http://a/x\nhttp://b/x\n", "in.txt:2", "used twice"},
    {"http://a/dir/\n", "in.txt:1", "names a directory"},
    {"javascript:alert(1)\n", "in.txt:1", "scheme"},
    {"\n# nothing\n", "in.txt", "no URL"},
    {"http://a/x \t\thttp://a/./x\n", "in.txt:1", "URL listed twice: http://a/./x"},
    {"http://a/x\n  checksum=sha-256=AB-12\n", "in.txt:2", "TYPE=HEX"},
    {"http://a/x\n  checksum=md5=" + "a".repeat(257) + "\n", "in.txt:2", "TYPE=HEX"},
    {"http://a/x\n  out=a//b\n", "in.txt:1", "empty segments"},
    {"http://a/x\n  out=a/./b\n", "in.txt:1", "'.'"},
    {"http://a/x\n  out=a\\b\n", "in.txt:1", "backslash"},
    {"http://a/x\u0001y\n", "in.txt:1", "control characters"},
    {"http://a/x\u007fy\n", "in.txt:1", "control characters"},
    // the same URL told apart from another by host and port first: case of scheme and host
    {"http://a/x HTTP://A/x\n", "in.txt:1", "URL listed twice: HTTP://A/x"},
    {"http://a:8080/x http://A:8080/x\n", "in.txt:1", "URL listed twice"},
    {"file:///d/x file:///d/./x\n", "in.txt:1", "URL listed twice"},
    {"http://a/1 http://a/2 http://a/3\n", "in.txt:1", "more than 2 URLs"},
  };

  @Test
  void checksumList_gnuAndBsdFormats() throws Exception {
    String sums =
        "ab".repeat(32)
            + "  ./run 1/a.bin\n"
            + "cd".repeat(16)
            + " *b.bin\n"
            + "\\"
            + "ef".repeat(20)
            + "  e\\\\f\n"
            + "SHA512 (c.bin) = "
            + "01".repeat(64)
            + "\n";
    // an escaped name is unescaped, then checked like any name: this one has a backslash
    CatalogException e =
        assertThrows(
            CatalogException.class,
            () -> Catalogs.parseChecksumList(sums, "SUMS", CatalogLimits.DEFAULT));
    assertTrue(
        e.getMessage().startsWith("SUMS:3: file name has control characters"), e.getMessage());
    Map<String, Map<String, String>> m =
        Catalogs.parseChecksumList(
            sums.replace("e\\\\f", "e f").replace("\\ef", "ef"), "SUMS", CatalogLimits.DEFAULT);
    assertEquals(Map.of("sha-256", "ab".repeat(32)), m.get("run 1/a.bin"));
    assertEquals(Map.of("md5", "cd".repeat(16)), m.get("b.bin"));
    assertEquals(Map.of("sha-1", "ef".repeat(20)), m.get("e f"));
    assertEquals(Map.of("sha-512", "01".repeat(64)), m.get("c.bin"));
    assertEquals(4, m.size());
  }

  @Test
  void checksumList_badLines_nameTheLine() {
    CatalogException e =
        assertThrows(
            CatalogException.class,
            () -> Catalogs.parseChecksumList("abc  x\n", "SUMS", CatalogLimits.DEFAULT));
    assertTrue(e.getMessage().startsWith("SUMS:1: a digest of 3 hex digits"), e.getMessage());
    e =
        assertThrows(
            CatalogException.class,
            () -> Catalogs.parseChecksumList("nonsense\n", "SUMS", CatalogLimits.DEFAULT));
    assertTrue(e.getMessage().startsWith("SUMS:1: not a checksum line"), e.getMessage());
    e =
        assertThrows(
            CatalogException.class,
            () ->
                Catalogs.parseChecksumList(
                    "ab".repeat(32) + "  /etc/passwd\n", "SUMS", CatalogLimits.DEFAULT));
    assertTrue(e.getMessage().contains("must be relative"), e.getMessage());
  }
}
