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
import java.util.concurrent.TimeUnit;
import org.braid.cli.BraidCli;
import org.braid.testkit.NginxServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get -r -d DIR} over three real nginx mirrors on 127.0.0.1 listing the same tree with
 * {@code autoindex_format json}: about 500 files in nested directories with log-normal sizes and
 * two large files (sizes 1 KB to 50 MB); the third mirror misses some files and serves one corrupt.
 * Then {@code kill -9} in the middle of a job and the same command again.
 */
class DatasetNginxTest {
  @TempDir static Path dir;
  static DatasetTree tree;
  static NginxServer nginx;
  static Path sums;
  static List<String> missing;
  static String corrupt;

  @BeforeAll
  static void start() throws Exception {
    tree =
        DatasetTree.create(
            dir.resolve("tree"), 500, 12_000, 50_000_000, true, 12_000_000, 50_000_000);
    DatasetTree.Replicas r = tree.threeReplicas(dir, 5, 37, 11);
    missing = r.missing();
    corrupt = r.corrupt();
    Path m0 = r.roots().get(0);
    Path m1 = r.roots().get(1);
    Path m2 = r.roots().get(2);
    sums = tree.checksums(dir.resolve("SHA256SUMS"));
    nginx =
        NginxServer.builder(dir.resolve("nginx"))
            .http("autoindex on;")
            .http("autoindex_format json;")
            .http("log_format ds '$connection $server_port \"$request\" $status';")
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

  record Run(int code, String out, String err) {}

  static Run braid(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  static List<String> args(Path out, String... more) {
    List<String> a = new ArrayList<>(List.of("get", "-r", "-d", out.toString()));
    a.addAll(List.of("--checksums", sums.toString(), "--no-journal", "--json"));
    a.addAll(List.of(more));
    // the corrupt mirror first: it must not win
    for (int m = 2; m >= 0; m--) {
      a.add(nginx.uri(m, "data/").toString());
    }
    return a;
  }

  @Test
  void threeMirrors_missingFilesAndACorruptCopy_datasetArrivesCompleteAndVerified()
      throws Exception {
    Path out = dir.resolve("out");
    int logged = Files.readAllLines(nginx.accessLog()).size();
    Run r = braid(args(out).toArray(String[]::new));
    assertEquals(0, r.code(), r.err() + r.out());
    assertEquals(List.of(), tree.wrong(out));
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(tree.sha.size(), j.get("files").asInt());
    assertEquals(tree.sha.size(), j.get("fetched").asInt());
    assertEquals(tree.total(), j.get("bytes").asLong());
    JsonNode bad = null;
    JsonNode big = null;
    for (JsonNode f : j.get("fileReports")) {
      if (f.get("path").asText().equals(corrupt)) {
        bad = f;
      }
      if (f.get("path").asText().equals("large/big1.h5")) {
        big = f;
      }
    }
    String m2 = "http://127.0.0.1:" + nginx.port(2);
    assertFalse(bad.get("servers").has(m2), bad.toString());
    assertTrue(big.get("servers").size() >= 2, "co-allocated: " + big);
    int m2Failures = 0;
    for (JsonNode s : j.get("servers")) {
      if (s.get("server").asText().equals(m2)) {
        m2Failures = s.get("failures").asInt();
      }
    }
    List<String> newLines = Files.readAllLines(nginx.accessLog());
    long askedM2 =
        newLines.subList(logged, newLines.size()).stream()
            .filter(l -> l.contains(" " + nginx.port(2) + " \"GET /data/" + corrupt + " "))
            .count();
    // a small file is fetched whole from one mirror: if the corrupt mirror was asked for its body
    // (a probe, then the data), its copy failed the checksum and counts as its failure
    assertTrue(
        tree.sizes.get(corrupt) >= 4 << 20 || askedM2 < 2 || m2Failures >= 1,
        askedM2 + " requests, " + j.get("servers"));
    // connections reused across files: far fewer connections than requests
    List<String> log = Files.readAllLines(nginx.accessLog());
    log = log.subList(logged, log.size());
    long requests = log.stream().filter(l -> l.contains("\"GET /data/")).count();
    long connections = log.stream().map(l -> l.substring(0, l.indexOf(' '))).distinct().count();
    assertTrue(requests >= tree.sha.size(), "requests " + requests);
    assertTrue(
        connections * 5 < requests, connections + " connections for " + requests + " requests");
  }

  @Test
  void killMinus9_thenTheSameCommandFinishesWithoutRefetchingVerifiedFiles() throws Exception {
    Path out = dir.resolve("killed");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BraidCli.class.getName()));
    cmd.addAll(args(out, "-j", "2", "--coallocate-above", "1000"));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve("killed.out").toFile())
            .redirectError(dir.resolve("killed.err").toFile())
            .start();
    Path state = out.resolve(".braid-dataset");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (lines(state) < 60 && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(
        p.isAlive(),
        "finished before it could be killed: " + Files.readString(dir.resolve("killed.err")));
    p.destroyForcibly(); // SIGKILL
    assertTrue(p.waitFor(10, TimeUnit.SECONDS));
    int recorded = lines(state);
    assertTrue(recorded >= 60 && recorded < tree.sha.size(), "recorded " + recorded);
    Run again = braid(args(out).toArray(String[]::new));
    assertEquals(0, again.code(), again.err() + again.out());
    assertEquals(List.of(), tree.wrong(out));
    JsonNode j = new ObjectMapper().readTree(again.out());
    assertTrue(
        j.get("skipped").asInt() >= recorded, "skipped " + j.get("skipped") + " < " + recorded);
    assertEquals(tree.sha.size(), j.get("skipped").asInt() + j.get("fetched").asInt());
    long skippedBytes = 0;
    for (JsonNode f : j.get("fileReports")) {
      if (f.get("status").asText().equals("skipped")) {
        skippedBytes += f.get("size").asLong();
      }
    }
    assertTrue(
        j.get("fetchedBytes").asLong() <= tree.total() - skippedBytes + 1_000_000,
        "fetched " + j.get("fetchedBytes") + " of " + (tree.total() - skippedBytes) + " missing");
    try (var files = Files.walk(out)) {
      assertEquals(
          List.of(),
          files.filter(f -> f.toString().endsWith(".part")).map(Path::toString).toList());
    }
  }

  private static int lines(Path p) throws Exception {
    return Files.exists(p) ? Files.readAllLines(p).size() : 0;
  }
}
