package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GetCommandTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  Path file(long size) throws Exception {
    Path p = dir.resolve("data.bin");
    byte[] b = new byte[(int) size];
    new SplittableRandom(9).nextBytes(b);
    try (OutputStream o = Files.newOutputStream(p)) {
      o.write(b);
    }
    return p;
  }

  @Test
  void help_listsEveryOption() {
    Run r = run("get", "--help");
    assertEquals(0, r.code());
    for (String o :
        List.of(
            "--output",
            "--scheme",
            "--blocks",
            "--max-sources",
            "--connections-per-source",
            "--streams",
            "--tcp-buffer",
            "--checksum",
            "--json",
            "--trace",
            "--plot",
            "--rate",
            "--journal",
            "--no-resume",
            "--stall-timeout",
            "--bearer-token-file",
            "--allow-insecure-token",
            "--header")) {
      assertTrue(r.out().contains(o), o);
    }
  }

  @Test
  void streamsOutOfRange_exitsTwoWithOneLine() {
    Run r = run("get", "-o", "x", "--streams", "17", "gsiftp://127.0.0.1:9/f");
    assertEquals(2, r.code());
    assertEquals(
        "braid: GridFTP streams must be in 0..16 (0: chosen from the history): 17\n", r.err());
  }

  @Test
  void missingOutput_exitsTwoWithOneLine() {
    Run r = run("get", "http://127.0.0.1:9/f");
    assertEquals(2, r.code());
    assertEquals(
        "braid: give -o FILE for one file or -d DIR for a dataset",
        r.err().lines().findFirst().get());
  }

  @Test
  void unknownScheme_exitsTwo() {
    Run r =
        run("get", "http://127.0.0.1:9/f", "-o", dir.resolve("o").toString(), "--scheme", "bogus");
    assertEquals(2, r.code());
    assertEquals(
        "braid: unknown scheme 'bogus' (use single, brute, history, conservative,"
            + " aggressive or adaptive)\n",
        r.err());
  }

  @Test
  void badChecksum_exitsTwo() {
    Run r =
        run(
            "get",
            "http://127.0.0.1:9/f",
            "-o",
            dir.resolve("o").toString(),
            "--checksum",
            "sha256:zz");
    assertEquals(2, r.code());
    assertEquals("braid: sha-256 checksum must be 64 hexadecimal digits: 'zz'\n", r.err());
  }

  @Test
  void historyWithoutRates_exitsTwo() {
    Run r =
        run(
            "get",
            "http://127.0.0.1:9/f",
            "-o",
            dir.resolve("o").toString(),
            "--scheme",
            "history");
    assertEquals(2, r.code());
    assertEquals("braid: --scheme history needs a --rate URL=RATE for every source\n", r.err());
  }

  @Test
  void unsupportedScheme_exitsTwo() {
    Run r = run("get", "sftp://127.0.0.1/f", "-o", dir.resolve("o").toString());
    assertEquals(2, r.code());
    assertEquals(
        "braid: unsupported URL scheme 'sftp' in sftp://127.0.0.1/f (use http, https,"
            + " davs, gsiftp, ftp, root, roots or file)\n",
        r.err());
  }

  @Test
  void unreachableOnly_exitsFourNamingTheReplica() {
    Run r =
        run(
            "get",
            "http://127.0.0.1:9/f",
            "-o",
            dir.resolve("o").toString(),
            "--no-journal",
            "--connect-timeout",
            "1");
    assertEquals(4, r.code());
    assertTrue(r.err().startsWith("braid: no usable replica: http://127.0.0.1:9/f:"), r.err());
    assertEquals(1, r.err().lines().count());
  }

  @Test
  void json_reportsBytesDigestAndReplicas() throws Exception {
    Path src = file(2_000_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(src).rate(4e6).start();
        Mirror b = Mirror.builder(src).rate(2e6).start()) {
      Path trace = dir.resolve("t.csv");
      Path plot = dir.resolve("t.png");
      Run r =
          run(
              "get",
              a.uri().toString(),
              b.uri().toString(),
              "-o",
              out.toString(),
              "--json",
              "--journal",
              dir.resolve("j.jsonl").toString(),
              "--trace",
              trace.toString(),
              "--plot",
              plot.toString(),
              "--rate",
              a.uri() + "=32Mbit/s");
      assertEquals(0, r.code(), r.err());
      JsonNode n = new ObjectMapper().readTree(r.out());
      assertEquals(2_000_000, n.get("bytes").asLong());
      assertTrue(n.get("seconds").asDouble() > 0);
      assertTrue(n.get("throughput").asDouble() > 0);
      assertEquals(64, n.get("sha256").asText().length());
      assertEquals(2, n.get("replicas").size());
      long sum = 0;
      for (JsonNode p : n.get("replicas")) {
        assertTrue(p.has("url") && p.has("blocks") && p.has("meanRate") && p.has("idleSeconds"));
        sum += p.get("bytes").asLong();
      }
      assertEquals(2_000_000, sum);
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertTrue(Files.readAllLines(trace).get(0).startsWith("replica,url,connection,offset,end"));
      assertTrue(Files.size(plot) > 1000);
      assertEquals("", r.err());
    }
  }

  @Test
  void text_printsSummaryAndReplicaTable() throws Exception {
    Path src = file(1_000_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(src).start()) {
      Run r =
          run(
              "get",
              a.uri().toString(),
              "-o",
              out.toString(),
              "--no-journal",
              "--scheme",
              "conservative",
              "--blocks",
              "4");
      assertEquals(0, r.code(), r.err());
      List<String> lines = r.out().lines().toList();
      assertTrue(lines.get(0).startsWith(out + ": 976.6 KiB in "), lines.get(0));
      assertTrue(lines.get(0).endsWith("(scheme conservative)"), lines.get(0));
      assertTrue(lines.get(1).startsWith("sha256 "), lines.get(1));
      assertTrue(
          lines.get(3).contains(a.uri().toString()) && lines.get(3).contains(" 4 "), lines.get(3));
    }
  }

  @Test
  void killedMidway_rerunResumes() throws Exception {
    Path src = file(6_000_000);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(src).rate(2e6).start()) {
      List<String> cmd =
          new ArrayList<>(
              Arrays.asList(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  BraidCli.class.getName(),
                  "get",
                  a.uri().toString(),
                  "-o",
                  out.toString(),
                  "--no-journal"));
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("child.log").toFile())
              .start();
      Path ctl = dir.resolve("out.bin.braid-ctl");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while ((a.servedBytes() < 3_000_000 || !Files.exists(ctl)) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      p.destroyForcibly(); // SIGKILL: no shutdown hook runs
      p.waitFor(10, TimeUnit.SECONDS);
      assertTrue(Files.exists(ctl), "control file written while running");
      Run r = run("get", a.uri().toString(), "-o", out.toString(), "--no-journal", "--json");
      assertEquals(0, r.code(), r.err());
      JsonNode n = new ObjectMapper().readTree(r.out());
      assertTrue(n.get("resumedBytes").asLong() > 0, r.out());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    }
  }
}
