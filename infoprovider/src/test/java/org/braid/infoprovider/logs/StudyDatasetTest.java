package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.braid.infoprovider.TransferRecord;
import org.junit.jupiter.api.Test;

/**
 * The prediction study's dataset (issue 8, {@code predictors/src/test/resources/study}) holds the
 * real transfer logs of globus-gridftp-server under network and disk load (gzip-compressed) next to
 * the transfers the provider stored from them. The parser must accept every line of those logs,
 * with eight streams, and yield exactly the stored transfers: same start, size and bandwidth.
 */
class StudyDatasetTest {

  static final Path STUDY = Path.of("../predictors/src/test/resources/study");

  @Test
  void realGridFtpLogsUnderLoad_parseToTheStoredTransfers() throws Exception {
    List<Path> mirrors;
    try (Stream<Path> s = Files.list(STUDY)) {
      mirrors = s.filter(p -> p.getFileName().toString().matches("m[0-9]+")).sorted().toList();
    }
    assertTrue(mirrors.size() >= 2, "mirror directories in " + STUDY.toAbsolutePath());
    for (Path m : mirrors) {
      List<TransferRecord> records = new ArrayList<>();
      ParseReport report = new ParseReport();
      LogFiles.read(m.resolve("transfer.log.gz"), LogFormat.GRIDFTP, records::add, report);
      assertEquals(0, report.rejected(), m + ": rejected lines " + report.examples());
      assertEquals(report.lines(), report.records(), m + ": every line is a transfer");
      List<TransferRecord> reads =
          records.stream()
              .filter(r -> r.succeeded() && r.operation() == TransferRecord.Operation.READ)
              .sorted((a, b) -> a.start().compareTo(b.start()))
              .toList();
      List<String[]> stored =
          Files.readAllLines(m.resolve("transfers.csv")).stream()
              .filter(l -> !l.startsWith("#") && !l.isBlank())
              .map(l -> l.split(","))
              .toList();
      assertTrue(stored.size() >= 30, m + ": at least 30 transfers, got " + stored.size());
      assertEquals(stored.size(), reads.size(), m + ": successful reads in the log vs stored");
      for (int i = 0; i < reads.size(); i++) {
        TransferRecord r = reads.get(i);
        String[] row = stored.get(i);
        assertEquals(8, r.streams(), m + " line " + i + ": eight parallel streams");
        double start = r.start().getEpochSecond() + r.start().getNano() / 1e9;
        assertEquals(Double.parseDouble(row[0]), start, 1e-5, m + " transfer " + i + ": start");
        assertEquals(Long.parseLong(row[2]), r.size(), m + " transfer " + i + ": size");
        assertEquals(
            Double.parseDouble(row[1]),
            r.bandwidth(),
            0.1 + 1e-9 * r.bandwidth(),
            m + " transfer " + i + ": bandwidth");
      }
    }
  }
}
