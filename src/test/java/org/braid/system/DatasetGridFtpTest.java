package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.braid.system.DatasetNginxTest.Run;
import org.braid.testkit.GlobusGridFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get -r -d DIR} over two real globus-gridftp-server mirrors on 127.0.0.1, each tree
 * listed with {@code MLSD}; the second misses some files and serves one corrupt. Names with spaces,
 * '+', '%' and shell metacharacters.
 */
class DatasetGridFtpTest {
  @TempDir static Path dir;
  static DatasetTree tree;
  static GlobusGridFtpServer a;
  static GlobusGridFtpServer b;
  static Path ma;
  static Path mb;
  static String corrupt;

  @BeforeAll
  static void start() throws Exception {
    GlobusGridFtpServer.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    // globus-gridftp-server 13 lists non-ASCII names with MLSD but cannot open them (SIZE and RETR
    // answer 550 No such file): no Unicode names here
    tree = DatasetTree.create(dir.resolve("tree"), 120, 8_000, 1_000_000, false, 6_000_000);
    List<String> names = tree.names();
    List<String> missing = new ArrayList<>();
    for (int i = 3; i < names.size(); i += 17) {
      missing.add(names.get(i));
    }
    corrupt = names.get(4);
    ma = tree.replica(dir.resolve("ma"), List.of());
    mb = tree.replica(dir.resolve("mb"), missing);
    DatasetTree.corrupt(mb, corrupt);
    Path logs = Files.createDirectories(dir.resolve("logs"));
    a = GlobusGridFtpServer.builder(logs).start();
    b = GlobusGridFtpServer.builder(logs).start();
  }

  @AfterAll
  static void stop() {
    for (GlobusGridFtpServer s : new GlobusGridFtpServer[] {a, b}) {
      if (s != null) {
        s.close();
      }
    }
  }

  @Test
  void twoMirrorsListedByMlsd_datasetArrivesCompleteAndVerified() throws Exception {
    Path out = dir.resolve("out");
    Path sums = tree.checksums(dir.resolve("SHA256SUMS"));
    Run r =
        DatasetNginxTest.braid(
            "get",
            "-r",
            "-d",
            out.toString(),
            "--checksums",
            sums.toString(),
            "--no-journal",
            "--json",
            b.uri(mb).toString() + "/",
            a.uri(ma).toString() + "/");
    assertEquals(0, r.code(), r.err() + r.out());
    assertEquals(List.of(), tree.wrong(out));
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(tree.sha.size(), j.get("fetched").asInt());
    for (JsonNode f : j.get("fileReports")) {
      if (f.get("path").asText().equals(corrupt)) {
        assertFalse(f.get("servers").has("gsiftp://127.0.0.1:" + b.port()), f.toString());
      }
    }
    assertTrue(r.err().isEmpty() || !r.err().contains("Exception"), r.err());
  }
}
