package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesReadersTest {

  @TempDir Path dir;

  @Test
  void readCsv_readsSecondsIsoHeaderCommentsAndSizes() throws IOException {
    Path f = dir.resolve("s.csv");
    Files.writeString(f, "timestamp,value\n# note\n10,5\n2026-01-01T00:00:00Z,6,1000\n\n");
    Series s = SeriesReaders.readCsv(f);
    assertEquals(2, s.size());
    assertEquals(10_000, s.timeMillis(0));
    assertEquals(1000, s.sizeBytes(1));
  }

  @Test
  void readCsv_whitespaceSeparatedTrace() throws IOException {
    Path f = dir.resolve("trace");
    Files.writeString(f, "0.0\t4.03\n0.55\t4.79\n");
    Series s = SeriesReaders.readCsv(f);
    assertEquals(550, s.timeMillis(1));
    assertEquals(4.79, s.value(1));
  }

  @Test
  void readCsv_badLines_nameFileLineAndProblem() throws IOException {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "1,5\n2,NaN\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SeriesReaders.readCsv(f));
    assertTrue(e.getMessage().startsWith(f + ":2: sample value must be finite"), e.getMessage());
    Files.writeString(f, "5,1\n4,1\n");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> SeriesReaders.readCsv(f))
            .getMessage()
            .contains(":2: series 'bad.csv': sample 1"));
    Files.writeString(f, "5,1\nabc,1\n");
    assertEquals(
        f + ":2: timestamp is neither Unix seconds nor ISO-8601: 'abc'",
        assertThrows(IllegalArgumentException.class, () -> SeriesReaders.readCsv(f)).getMessage());
    Files.writeString(f, "5,1\n6,-3\n");
    assertThrows(IllegalArgumentException.class, () -> SeriesReaders.readCsv(f));
  }

  @Test
  void readSlac_gzip_groupsSortsAndCountsBadRows() throws IOException {
    Path f = dir.resolve("slac.csv.gz");
    String text =
        "instr,ftype,start,fsz,elap,ttype,fsid,nstripe,stripe0,stripeall\n"
            + "amo,0,200,1000000,1000,0,3,1,2,2\n"
            + "amo,0,100,2000000,500,0,3,1,2,2\n"
            + "amo,0,150,1000,0,0,3,1,2,2\n" // zero duration
            + "amo,0,150,1000,10,1,11,1,2,2\n"
            + "garbage\n";
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    SeriesReaders.Result r = SeriesReaders.readSlac(f);
    assertEquals(2, r.series().size());
    Series s = r.series().get(1);
    assertEquals("fsid=3,ttype=0", s.name());
    assertEquals(100_000, s.timeMillis(0)); // sorted by start
    assertEquals(4_000_000.0, s.value(0)); // 2 MB in 0.5 s
    assertEquals(2, r.rejected());
    assertTrue(
        r.problems().get(0).endsWith(":4: elapsed time is not positive: 0"), r.problems().get(0));
  }

  @Test
  void readSlac_missingColumn_isReported() throws IOException {
    Path f = dir.resolve("x.csv");
    Files.writeString(f, "start,fsz\n1,2\n");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> SeriesReaders.readSlac(f))
            .getMessage()
            .contains("lacks column 'elap'"));
  }
}
