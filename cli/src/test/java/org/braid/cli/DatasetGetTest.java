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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.braid.cli.GetCommandTest.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code braid get -d DIR} over local replicas: directories, Metalinks, input lists. */
class DatasetGetTest {
  @TempDir Path dir;
  Path a;
  Path b;
  Path out;
  List<String> names = new ArrayList<>();
  StringBuilder sums = new StringBuilder();
  Map<String, byte[]> data = new HashMap<>();

  @BeforeEach
  void tree() throws Exception {
    a = Files.createDirectories(dir.resolve("a"));
    b = Files.createDirectories(dir.resolve("b"));
    out = dir.resolve("out");
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 12; i++) {
      String name = "run/" + (i % 3) + "/" + (i == 4 ? "with space é" : "f" + i) + ".dat";
      names.add(name);
      byte[] bytes = new byte[1000 + r.nextInt(60_000)];
      r.nextBytes(bytes);
      data.put(name, bytes);
      for (Path root : List.of(a, b)) {
        Files.createDirectories(root.resolve(name).getParent());
        Files.write(root.resolve(name), bytes);
      }
      String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      sums.append(hex).append("  ").append(name).append('\n');
    }
  }

  private static Run run(String... args) {
    return GetCommandTest.run(args);
  }

  private static JsonNode json(Run r) throws Exception {
    return new ObjectMapper().readTree(r.out());
  }

  private void assertArrived(List<String> which) throws Exception {
    for (String n : which) {
      assertArrayEquals(data.get(n), Files.readAllBytes(out.resolve(n)), n);
    }
  }

  @Test
  void recursiveDirectories_missingFileAndCorruptCopy_arriveVerified_thenResumeSkipsAll()
      throws Exception {
    Files.delete(b.resolve(names.get(1)));
    byte[] bad = Files.readAllBytes(a.resolve(names.get(2)));
    bad[10] ^= 1;
    Files.write(a.resolve(names.get(2)), bad);
    Path list = Files.writeString(dir.resolve("SHA256SUMS"), sums);
    String[] args = {
      "get",
      "-r",
      "-d",
      out.toString(),
      "--checksums",
      list.toString(),
      "--json",
      "--no-journal",
      a.toString(),
      b.toString()
    };
    Run r = run(args);
    assertEquals(0, r.code(), r.err() + r.out());
    JsonNode j = json(r);
    assertEquals(12, j.get("files").asInt());
    assertEquals(12, j.get("fetched").asInt());
    assertEquals(0, j.get("failed").asInt());
    assertArrived(names);
    Run again = run(args);
    assertEquals(0, again.code(), again.err());
    assertEquals(12, json(again).get("skipped").asInt());
    assertEquals(0, json(again).get("fetchedBytes").asLong());
  }

  @Test
  void aFileNoReplicaServesCorrectly_exitsOneNamingIt_andTheOthersArrive() throws Exception {
    for (Path root : List.of(a, b)) {
      Files.write(root.resolve(names.get(3)), new byte[] {1, 2, 3});
    }
    Path list = Files.writeString(dir.resolve("SHA256SUMS"), sums);
    Run r =
        run(
            "get",
            "-r",
            "-d",
            out.toString(),
            "--checksums",
            list.toString(),
            "--no-journal",
            a.toString(),
            b.toString());
    assertEquals(1, r.code(), r.out());
    assertTrue(r.out().contains("failed '" + names.get(3) + "': "), r.out());
    // the reason of each replica: both serve a copy that does not match the checksum
    String line =
        r.out()
            .lines()
            .filter(l -> l.contains("failed '" + names.get(3)))
            .findFirst()
            .orElseThrow();
    assertTrue(line.contains(a.toUri().toString()) && line.contains(b.toUri().toString()), line);
    assertTrue(r.err().contains("1 of 12 files not fetched"), r.err());
    List<String> others = new ArrayList<>(names);
    others.remove(3);
    assertArrived(others);
    assertFalse(Files.exists(out.resolve(names.get(3))));
  }

  @Test
  void metalinkWithManyFiles_allOrThoseTheGlobSelects() throws Exception {
    StringBuilder x = new StringBuilder("<?xml version=\"1.0\"?>\n");
    x.append("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n");
    String[] lines = sums.toString().split("\n");
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      x.append("<file name=\"").append(n).append("\"><size>").append(Files.size(a.resolve(n)));
      x.append("</size><hash type=\"sha-256\">").append(lines[i], 0, 64).append("</hash>");
      x.append("<url>").append(a.resolve(n).toUri()).append("</url>");
      x.append("<url>").append(b.resolve(n).toUri()).append("</url></file>\n");
    }
    x.append("</metalink>\n");
    Path ml = Files.writeString(dir.resolve("d.meta4"), x);
    Run some =
        run(
            "get",
            "--metalink",
            ml.toString(),
            "--name",
            "run/0/*",
            "-d",
            out.toString(),
            "--json",
            "--no-journal");
    assertEquals(0, some.code(), some.err());
    assertEquals(4, json(some).get("files").asInt());
    assertTrue(Files.exists(out.resolve(names.get(3))));
    assertFalse(Files.exists(out.resolve(names.get(1))));
    Run all =
        run("get", "--metalink", ml.toString(), "-d", out.toString(), "--json", "--no-journal");
    assertEquals(0, all.code(), all.err());
    assertEquals(12, json(all).get("files").asInt());
    assertEquals(4, json(all).get("skipped").asInt());
    assertArrived(names);
  }

  @Test
  void inputList_withOutputNamesAndChecksums() throws Exception {
    String[] lines = sums.toString().split("\n");
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      String n = names.get(i);
      l.append(a.resolve(n).toUri()).append('\t').append(b.resolve(n).toUri()).append('\n');
      l.append("  out=copy-").append(i).append(".dat\n");
      l.append("  dir=sub\n");
      l.append("  checksum=sha-256=").append(lines[i], 0, 64).append('\n');
    }
    Path list = Files.writeString(dir.resolve("list.txt"), l);
    Run r = run("get", "-i", list.toString(), "-d", out.toString(), "-j", "2", "--no-journal");
    assertEquals(0, r.code(), r.err() + r.out());
    for (int i = 0; i < 3; i++) {
      assertArrayEquals(
          Files.readAllBytes(a.resolve(names.get(i))),
          Files.readAllBytes(out.resolve("sub/copy-" + i + ".dat")));
    }
  }

  @Test
  void inputList_aBadEntryAfterTheFirstFiles_exitsTwoNamingTheLine_andARunAfterTheFixResumes()
      throws Exception {
    // more entries than are read before the job starts, then a bad checksum line
    StringBuilder l = new StringBuilder();
    int entries = DatasetListFeed.HEAD + 8;
    for (int i = 0; i < entries; i++) {
      String n = names.get(i % names.size());
      l.append(a.resolve(n).toUri()).append('\t').append(b.resolve(n).toUri()).append('\n');
      l.append("  out=copy-").append(i).append(".dat\n");
    }
    String good = l.toString();
    int badLine = 2 * entries + 2;
    Path list = Files.writeString(dir.resolve("list.txt"), good + "file:///x\n  checksum=x\n");
    Run r = run("get", "-i", list.toString(), "-d", out.toString(), "--no-journal");
    assertEquals(2, r.code(), r.err() + r.out());
    assertEquals(
        "braid: "
            + list
            + ":"
            + badLine
            + ": checksum must look like TYPE=HEX, e.g. sha-256=9f86...",
        r.err().lines().filter(x -> x.contains(list.toString())).findFirst().orElse(r.err()));
    int kept = 0;
    for (int i = 0; i < entries; i++) {
      kept += Files.exists(out.resolve("copy-" + i + ".dat")) ? 1 : 0;
    }
    Files.writeString(list, good);
    Run again = run("get", "-i", list.toString(), "-d", out.toString(), "--json", "--no-journal");
    assertEquals(0, again.code(), again.err());
    assertEquals(entries, json(again).get("files").asInt());
    assertEquals(kept, json(again).get("skipped").asInt(), again.out());
    for (int i = 0; i < entries; i++) {
      assertArrayEquals(
          data.get(names.get(i % names.size())),
          Files.readAllBytes(out.resolve("copy-" + i + ".dat")));
    }
  }

  @Test
  void perDownloadGuards_applyToEachFileOfADataset() throws Exception {
    Run r =
        run(
            "get",
            "-r",
            "-d",
            out.toString(),
            "--no-journal",
            "--max-tries",
            "2",
            "--limit-rate",
            "100M",
            "-Y",
            "10",
            "-y",
            "5",
            "--max-retry-after",
            "5",
            a.toString(),
            b.toString());
    assertEquals(0, r.code(), r.err() + r.out());
    assertArrived(names);
  }

  @Test
  void badUsage_exitsTwoWithOneLine() {
    Run noInput = run("get", "-d", out.toString());
    assertEquals(2, noInput.code());
    assertTrue(noInput.err().startsWith("braid: with -d, give -r"), noInput.err());
    Run noR = run("get", "-d", out.toString(), a.toString());
    assertEquals(2, noR.code());
    assertTrue(noR.err().contains("add -r"), noR.err());
    Run both = run("get", "-d", out.toString(), "-o", "x", "-r", a.toString());
    assertEquals(2, both.code());
    assertTrue(both.err().contains("not both"), both.err());
    Run j = run("get", "-d", out.toString(), "-r", "-j", "5000", a.toString());
    assertEquals(2, j.code());
    assertTrue(j.err().contains("-j must be in 1..1024"), j.err());
    for (String[] guard :
        new String[][] {
          {"--limit-rate", "fast", "bad rate 'fast'"},
          {"--max-tries", "0", "--max-tries must be in [1, 100]: 0"},
          {"--max-retry-after", "-1", "--max-retry-after must be in [0, 86400]"}
        }) {
      Run g = run("get", "-d", out.toString(), "-r", guard[0], guard[1], a.toString());
      assertEquals(2, g.code(), g.err());
      assertTrue(g.err().contains(guard[2]), g.err());
    }
    Run neither = run("get", a.toString());
    assertEquals(2, neither.code());
    assertTrue(neither.err().startsWith("braid: give -o FILE"), neither.err());
    Run rWithoutD = run("get", "-r", "-o", "x", a.toString());
    assertEquals(2, rWithoutD.code());
    assertTrue(rWithoutD.err().contains("need -d"), rWithoutD.err());
  }

  @Test
  void help_showsTheDatasetInputs() {
    Run r = run("get", "--help");
    for (String o :
        List.of("--dir", "--input-file", "--recursive", "--concurrency", "--checksums")) {
      assertTrue(r.out().contains(o), o);
    }
  }
}
