package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassadCommandTest {

  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(String stdin, String... args) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
      return new Run(code, out.toString(), err.toString());
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void eval_printsOneLiteralPerLine() {
    Run r =
        run(
            "x\n1/0\ntrue && undefined\n1 + 2\n5 / 2.0\n\"a\\\"b\"\n{ 1, 1 + 1 }\n[ a = 1 ]\n"
                + "real(\"INF\")\n-real(\"INF\")\nreal(\"NaN\")\n0.1 + 0.2\n",
            "classad",
            "eval");
    assertEquals(0, r.code());
    assertEquals(
        "undefined\nerror\nundefined\n3\n2.500000000000000E+00\n\"a\\\"b\"\n{ 1, 2 }\n[ a = 1 ]\n"
            + "real(\"INF\")\nreal(\"-INF\")\nreal(\"NaN\")\n3.0000000000000004E-01\n",
        r.out());
    assertEquals("", r.err());
  }

  @Test
  void eval_badLine_printsErrorReportsPositionAndGoesOn() {
    Run r = run("1 +\n2\n", "classad", "eval");
    assertEquals(2, r.code());
    assertEquals("error\n2\n", r.out());
    assertEquals(
        "braid: line 1, column 4: unexpected end of input, expected an expression\n", r.err());
  }

  @Test
  void eval_hostileLines_giveOneLineErrorsAndTheRunGoesOn() {
    String longLine = "\"" + "x".repeat(1 << 20) + "\"";
    Run r =
        run(
            "[ r = { r } ].r\n" + longLine + "\nreplaceAll(\"x*\", \"abc\", \"y\")\n1 + 1\n",
            "classad",
            "eval");
    assertEquals(2, r.code());
    assertEquals("error\nerror\nerror\n2\n", r.out());
    assertEquals(
        "braid: line 1: printed value contains itself\n"
            + "braid: line 2, column 1: input exceeds the limit of 1048576 characters\n",
        r.err());
  }

  @Test
  void eval_paperSuffixes_onlyWithPaperFlag() {
    assertEquals("6000000\n", run("6M/sec\n", "classad", "eval", "--paper").out());
    assertEquals("error\n", run("6M/sec\n", "classad", "eval").out());
  }

  @Test
  void eval_json_printsObjects() {
    Run r = run("1 + 2\n", "classad", "eval", "--json");
    assertEquals("{\"line\":1,\"value\":\"3\",\"type\":\"integer\"}\n", r.out());
  }

  @Test
  void match_paperExample_ranksAndExplains() throws Exception {
    Path req = dir.resolve("request.ad");
    Files.writeString(
        req,
        "hostname = \"comet.xyz.com\";\nreqRDBandwidth = 5M/sec;\nrank = other.AvgRDBandwidth;\n"
            + "requirement = other.AvgRDBandwidth > 5M/sec;\n");
    Path cands = dir.resolve("storage.ads");
    Files.writeString(
        cands,
        "hostname = \"dpsslx04.lbl.gov\";\nvolume = \"/dev/sandbox\";\navailableSpace = 50G;\n"
            + "AvgRDBandwidth = 6M/sec;\nrequirement = true;\n\n"
            + "hostname = \"slow.example.org\";\nAvgRDBandwidth = 4M/sec;\nrequirement = true;\n\n"
            + "hostname = \"fast.example.org\";\nAvgRDBandwidth = 9M/sec;\nrequirement = true;\n");
    Run r =
        run(
            "",
            "classad",
            "match",
            "--request",
            req.toString(),
            "--candidates",
            cands.toString(),
            "--paper");
    assertEquals(0, r.code(), r.err());
    assertEquals(
        "3 candidates: 2 match, 1 rejected\n"
            + "matches, best first:\n"
            + "  1. candidate 3 (hostname = \"fast.example.org\"): rank 9000000\n"
            + "  2. candidate 1 (hostname = \"dpsslx04.lbl.gov\"): rank 6000000\n"
            + "rejected:\n"
            + "  candidate 2 (hostname = \"slow.example.org\"):\n"
            + "    request clause other.AvgRDBandwidth > 5000000 is false "
            + "(other.AvgRDBandwidth = 4000000)\n"
            + "request clauses:\n"
            + "  other.AvgRDBandwidth > 5000000: rejected 1 of 3\n",
        r.out());
  }

  @Test
  void match_json_listsMatchesAndReasons() throws Exception {
    Path req = dir.resolve("r.ad");
    Files.writeString(req, "[ Requirements = other.x > 1; Rank = other.x ]");
    Path cands = dir.resolve("c.ads");
    Files.writeString(cands, "[ x = 2; Requirements = true ] [ x = 0; Requirements = true ]");
    Run r =
        run(
            "",
            "classad",
            "match",
            "--request",
            req.toString(),
            "--candidates",
            cands.toString(),
            "--json");
    assertEquals(0, r.code(), r.err());
    assertEquals(
        "{\"candidates\":2,\"matches\":[{\"candidate\":1,\"rank\":2.0,\"candidateRank\":0.0,"
            + "\"ad\":{\"x\":2,\"Requirements\":true}}],\"rejected\":[{\"candidate\":2,\"reasons\":"
            + "[{\"side\":\"request\",\"clause\":\"other.x > 1\",\"value\":\"false\",\"references\":"
            + "{\"other.x\":\"0\"},\"explanation\":\"request clause other.x > 1 is false (other.x = 0)\"}]}],"
            + "\"requestClauses\":[{\"clause\":\"other.x > 1\",\"rejected\":1}]}\n",
        r.out());
  }

  @Test
  void match_missingFile_exitsTwoWithOneLine() {
    Run r =
        run(
            "",
            "classad",
            "match",
            "--request",
            dir.resolve("nope").toString(),
            "--candidates",
            "x");
    assertEquals(2, r.code());
    assertEquals("braid: request file not found: " + dir.resolve("nope") + "\n", r.err());
  }

  @Test
  void match_badAd_reportsFileLineAndColumn() throws Exception {
    Path req = dir.resolve("bad.ad");
    Files.writeString(req, "[ a = 1;\n  b = ]");
    Run r =
        run("", "classad", "match", "--request", req.toString(), "--candidates", req.toString());
    assertEquals(2, r.code());
    assertEquals(
        "braid: request file "
            + req
            + ": line 2, column 7: unexpected ']', expected an expression\n",
        r.err());
  }

  @Test
  void help_listsSubcommands() {
    Run r = run("", "classad", "--help");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("eval") && r.out().contains("match"), r.out());
  }
}
