package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderStatsCommandTest {

  // Two real RETR/ERET lines and one STOR line from globus-gridftp-server, plus garbage.
  static final String LOG =
      "DATE=20261122041153.582974 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO"
          + " START=20261122041153.580706 USER=anonymous FILE=/tmp/gftp/data/a.bin BUFFER=131072"
          + " BLOCK=262144 NBYTES=3000000 VOLUME=/ STREAMS=1 STRIPES=1 DEST=[127.0.0.1] TYPE=RETR"
          + " CODE=226 TASKID=none\n"
          + "DATE=20261122041153.609425 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO"
          + " START=20261122041153.609092 USER=anonymous FILE=/tmp/gftp/data/a.bin BUFFER=131072"
          + " BLOCK=262144 NBYTES=5000 VOLUME=/ STREAMS=1 STRIPES=1 DEST=[127.0.0.1] TYPE=ERET"
          + " CODE=226 TASKID=none\n"
          + "DATE=20261122041153.631069 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO"
          + " START=20261122041153.630150 USER=anonymous FILE=/tmp/gftp/up.bin BUFFER=3939840"
          + " BLOCK=262144 NBYTES=200000 VOLUME=/ STREAMS=4 STRIPES=1 DEST=[127.0.0.1] TYPE=STOR"
          + " CODE=226 TASKID=none retrans=0,0,0,0\n"
          + "DATE=20261122041153.7 NBYTES=-1\n";

  @TempDir Path dir;

  private int run(StringWriter out, StringWriter err, String... args) {
    return BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void stats_json_oneObjectPerPeerOperationSizeClass() throws Exception {
    Path log = dir.resolve("x.log");
    Files.writeString(log, LOG);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = run(out, err, "provider", "stats", "--format", "gridftp", log.toString(), "--json");
    assertEquals(0, code, err.toString());
    JsonNode a = new ObjectMapper().readTree(out.toString());
    assertEquals(2, a.size());
    JsonNode read = a.get(0);
    assertEquals("127.0.0.1", read.get("peer").asText());
    assertEquals("read", read.get("operation").asText());
    assertEquals("10M", read.get("sizeClass").asText());
    assertEquals(2, read.get("count").asLong());
    assertEquals(3_005_000, read.get("bytes").asLong());
    double bw1 = 3_000_000 / 0.002268;
    double bw2 = 5_000 / 0.000333;
    assertEquals(Math.min(bw1, bw2), read.get("minBandwidth").asDouble(), 1e-3);
    assertEquals(Math.max(bw1, bw2), read.get("maxBandwidth").asDouble(), 1e-3);
    assertEquals((bw1 + bw2) / 2, read.get("meanBandwidth").asDouble(), 1e-3);
    assertEquals(1, read.get("rejectedLines").asLong());
    JsonNode write = a.get(1);
    assertEquals("write", write.get("operation").asText());
    assertEquals(200_000 / 0.000919, write.get("meanBandwidth").asDouble(), 1e-3);
    assertEquals("braid: rejected " + log + ":4: missing key START\n", err.toString());
  }

  @Test
  void stats_text_printsTableAndCounts() throws Exception {
    Path log = dir.resolve("x.log");
    Files.writeString(log, LOG);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, run(out, err, "provider", "stats", "--format", "gridftp", log.toString()));
    String[] lines = out.toString().split("\n");
    assertEquals(5, lines.length, out.toString());
    assertEquals("lines 4, transfers 3, skipped 0, rejected 1", lines[3]);
    assertEquals("  rejected: missing key START: 1", lines[4]);
  }

  @Test
  void stats_missingFile_exitsTwoWithOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        run(
            out,
            err,
            "provider",
            "stats",
            "--format",
            "gridftp",
            dir.resolve("nope.log").toString());
    assertEquals(2, code);
    assertEquals("braid: log file not found: " + dir.resolve("nope.log") + "\n", err.toString());
  }

  @Test
  void stats_badFormat_exitsTwoWithOneLine() throws Exception {
    Path log = dir.resolve("x.log");
    Files.writeString(log, LOG);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = run(out, err, "provider", "stats", "--format", "syslog", log.toString());
    assertEquals(2, code);
    assertEquals(
        "braid: log format must be gridftp, nginx, apache or braid: syslog\n", err.toString());
  }
}
