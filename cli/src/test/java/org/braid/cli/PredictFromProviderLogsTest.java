package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PredictFromProviderLogsTest {

  @TempDir Path dir;

  @Test
  void evaluate_gridftpLog_oneSeriesPerPeerAndOperation() throws Exception {
    DateTimeFormatter nl =
        DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSSSSS").withZone(ZoneOffset.UTC);
    StringBuilder sb = new StringBuilder();
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    for (int i = 0; i < 30; i++) {
      for (String peer : new String[] {"10.0.0.1", "10.0.0.2"}) {
        Instant end = t0.plusSeconds(600L * i);
        Instant start = end.minusMillis(1000 + 37L * i);
        sb.append("DATE=")
            .append(nl.format(end))
            .append(" HOST=h START=")
            .append(nl.format(start))
            .append(" FILE=/d/f")
            .append(i)
            .append(" NBYTES=")
            .append(10_000_000 + i * 1000)
            .append(" VOLUME=/ STREAMS=1 DEST=[")
            .append(peer)
            .append("] TYPE=RETR CODE=226\n");
      }
    }
    sb.append("garbage\n");
    Path log = dir.resolve("transfer.log");
    Files.writeString(log, sb);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BraidCli.execute(
            new PrintWriter(out),
            new PrintWriter(err),
            "predict",
            "evaluate",
            "--format",
            "gridftp",
            log.toString());
    assertEquals(0, code, err.toString());
    assertTrue(
        out.toString()
            .startsWith("10.0.0.1/read: 30 samples, 15 predicted after a training set of 15\n"),
        out.toString());
    assertTrue(out.toString().contains("\n10.0.0.2/read: 30 samples,"), out.toString());
    assertEquals(
        "braid: "
            + log
            + ": skipped 1 malformed lines (first: "
            + log
            + ":61: not KEY=value: garbage)\n",
        err.toString());
  }
}
