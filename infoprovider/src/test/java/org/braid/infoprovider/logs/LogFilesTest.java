package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.braid.infoprovider.TransferRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {

  @TempDir Path dir;

  @Test
  void read_mixedFile_countsEveryLineWithLineNumbers() throws Exception {
    Path log = dir.resolve("x.log");
    byte[] garbage = {(byte) 0xff, 0x00, 0x13, (byte) 0x80, 'A'};
    try (OutputStream out = Files.newOutputStream(log)) {
      out.write((GridFtpLogParserTest.RETR + "\n").getBytes(StandardCharsets.UTF_8));
      out.write(garbage);
      out.write('\n');
      out.write("\n".getBytes(StandardCharsets.UTF_8));
      out.write(("x".repeat(LogFiles.MAX_LINE_BYTES + 10) + "\n").getBytes(StandardCharsets.UTF_8));
      out.write((GridFtpLogParserTest.STOR + "\r\n").getBytes(StandardCharsets.UTF_8));
      // A final line without newline still counts in a finished file.
      out.write(GridFtpLogParserTest.RETR.substring(0, 100).getBytes(StandardCharsets.UTF_8));
    }
    List<TransferRecord> got = new ArrayList<>();
    ParseReport report = new ParseReport();
    LogFiles.read(log, LogFormat.GRIDFTP, got::add, report);
    assertEquals(2, got.size());
    assertEquals(6, report.lines());
    assertEquals(2, report.records());
    assertEquals(1, report.skipped());
    assertEquals(3, report.rejected());
    assertEquals(
        List.of(
            log + ":2: binary data: character 65533 at column 1",
            log + ":4: line too long (over 65536 bytes)",
            log + ":6: missing key FILE"),
        report.examples().stream().map(Object::toString).toList());
  }

  @Test
  void read_realServerLog_golden() throws Exception {
    // Written by globus-gridftp-server 13 (Debian 12): RETR, ERET (-off/-len), STOR with -p 4.
    Path log = Path.of(getClass().getResource("/logs/gridftp-real.log").toURI());
    List<TransferRecord> got = new ArrayList<>();
    ParseReport report = new ParseReport();
    LogFiles.read(log, LogFormat.GRIDFTP, got::add, report);
    assertEquals(3, report.records());
    assertEquals(0, report.rejected());
    assertEquals(
        List.of(3_000_000L, 5_000L, 200_000L), got.stream().map(TransferRecord::size).toList());
    assertEquals(List.of(1, 1, 4), got.stream().map(TransferRecord::streams).toList());
    assertEquals(
        List.of(
            TransferRecord.Operation.READ,
            TransferRecord.Operation.READ,
            TransferRecord.Operation.WRITE),
        got.stream().map(TransferRecord::operation).toList());
  }

  @Test
  void read_gzipFile_isDecompressed() throws Exception {
    Path gz = dir.resolve("x.log.1.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(
          (GridFtpLogParserTest.RETR + "\n" + GridFtpLogParserTest.STOR + "\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    List<TransferRecord> got = new ArrayList<>();
    ParseReport report = new ParseReport();
    LogFiles.read(gz, LogFormat.GRIDFTP, got::add, report);
    assertEquals(2, got.size());
    assertEquals(0, report.rejected());
  }
}
