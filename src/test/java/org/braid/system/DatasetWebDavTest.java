package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.braid.cli.BraidCli;
import org.braid.testkit.NginxServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get -r -d DIR} over three real nginx mirrors on 127.0.0.1 that list the tree only by
 * WebDAV {@code PROPFIND} (nginx's dav-ext module, no autoindex): nested directories, names with
 * spaces, Unicode and shell metacharacters, one mirror missing files and serving one corrupt, one
 * named by a {@code dav://} URL.
 */
class DatasetWebDavTest {
  @TempDir static Path dir;
  static DatasetTree tree;
  static NginxServer nginx;
  static Path sums;
  static List<String> missing;
  static String corrupt;

  @BeforeAll
  static void start() throws Exception {
    tree = DatasetTree.create(dir.resolve("tree"), 150, 12_000, 50_000_000, true, 8_000_000);
    DatasetTree.Replicas r = tree.threeReplicas(dir, 3, 29, 10);
    missing = r.missing();
    corrupt = r.corrupt();
    Path m0 = r.roots().get(0);
    Path m1 = r.roots().get(1);
    Path m2 = r.roots().get(2);
    sums = tree.checksums(dir.resolve("SHA256SUMS"));
    nginx =
        NginxServer.builder(dir.resolve("nginx"))
            .webDav()
            .http("log_format ds '$server_port \"$request\" $status';")
            .accessLog(dir.resolve("access.log"), "ds")
            .server(m0.getParent(), "10m")
            .server(m1.getParent(), "5m")
            .server(m2.getParent(), "3m")
            .start();
  }

  @AfterAll
  static void stop() {
    if (nginx != null) {
      nginx.close();
    }
  }

  @Test
  void propfindListing_missingFilesAndACorruptCopy_datasetArrivesCompleteAndVerified()
      throws Exception {
    Path out = dir.resolve("out");
    List<String> a = new ArrayList<>(List.of("get", "-r", "-d", out.toString()));
    a.addAll(List.of("--checksums", sums.toString(), "--no-journal", "--json"));
    a.add(nginx.uri(2, "data/").toString()); // the corrupt mirror first: it must not win
    a.add(nginx.uri(1, "data/").toString().replaceFirst("^http:", "dav:"));
    a.add(nginx.uri(0, "data/").toString());
    StringWriter so = new StringWriter();
    StringWriter se = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(so), new PrintWriter(se), a.toArray(String[]::new));
    assertEquals(0, code, se + "\n" + so);
    assertEquals(List.of(), tree.wrong(out));
    JsonNode j = new ObjectMapper().readTree(so.toString());
    assertEquals(tree.sha.size(), j.get("files").asInt());
    assertEquals(tree.total(), j.get("bytes").asLong());
    for (JsonNode f : j.get("fileReports")) {
      if (f.get("path").asText().equals(corrupt)) {
        assertFalse(f.get("servers").has("http://127.0.0.1:" + nginx.port(2)), f.toString());
      }
      if (missing.contains(f.get("path").asText())) {
        assertFalse(f.get("servers").has("http://127.0.0.1:" + nginx.port(2)), f.toString());
      }
    }
    // every replica was listed by PROPFIND, directory by directory (autoindex is off: a GET of a
    // directory would have been refused), and every directory of the tree was asked on each
    List<String> log = Files.readAllLines(nginx.accessLog());
    long dirs = tree.names().stream().flatMap(n -> parents(n).stream()).distinct().count();
    for (int m = 0; m < 3; m++) {
      String port = nginx.port(m) + " ";
      long propfinds =
          log.stream().filter(l -> l.startsWith(port) && l.contains("\"PROPFIND ")).count();
      assertTrue(propfinds >= dirs + 1, "mirror " + m + ": " + propfinds + " PROPFIND, " + dirs);
      assertTrue(
          log.stream()
              .filter(l -> l.startsWith(port) && l.contains("\"PROPFIND "))
              .allMatch(l -> l.endsWith(" 207")),
          "PROPFIND not answered 207 Multi-Status at mirror " + m);
    }
  }

  /** The directories above {@code name}, e.g. "a/" and "a/b/" for "a/b/c". */
  private static List<String> parents(String name) {
    List<String> p = new ArrayList<>();
    for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
      p.add(name.substring(0, i + 1));
    }
    return p;
  }
}
