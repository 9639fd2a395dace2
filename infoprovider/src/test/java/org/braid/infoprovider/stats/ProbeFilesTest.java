package org.braid.infoprovider.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.SeriesJson;
import org.braid.predictors.Series;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeFilesTest {

  @TempDir Path dir;

  @Test
  void read_providerExport_isTheSeriesTheProviderWrote() throws IOException {
    List<Point> points =
        List.of(
            new Point(Instant.parse("2026-11-22T11:55:00Z"), 1.25e7),
            new Point(Instant.parse("2026-11-22T12:00:00.125Z"), 987654.5),
            new Point(Instant.parse("2026-11-22T12:05:00Z"), 0));
    Path f = dir.resolve("net.json");
    Files.writeString(
        f, "\n  " + SeriesJson.write(new SeriesJson.Answer("network/10.0.0.1/bandwidth", points)));
    Series s = ProbeFiles.read(f);
    assertEquals("network/10.0.0.1/bandwidth", s.name());
    assertEquals(points.size(), s.size());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(points.get(i).time(), s.get(i).time());
      assertEquals(points.get(i).value(), s.value(i));
    }
  }

  @Test
  void read_studyCsv_plainAndGzip() throws IOException {
    Path f = dir.resolve("disk_util.csv.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(f))) {
      o.write("# time (Unix s),util\n10.5,5\n20,6\n".getBytes(StandardCharsets.UTF_8));
    }
    Series s = ProbeFiles.read(f);
    assertEquals("disk_util.csv.gz", s.name());
    assertEquals(2, s.size());
    assertEquals(10_500, s.timeMillis(0));
    Path g = dir.resolve("n.csv");
    Files.writeString(g, "10,5\n20,6\n");
    assertEquals(6.0, ProbeFiles.read(g).value(1));
  }

  @Test
  void read_badInput_namesTheFileAndProblem() throws IOException {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"points\": 3");
    String m = assertThrows(IllegalArgumentException.class, () -> ProbeFiles.read(f)).getMessage();
    assertTrue(m.startsWith(f + ": "), m);
    Path g = dir.resolve("order.json");
    Files.writeString(
        g,
        "{\"series\":\"s\",\"points\":[{\"time\":\"2026-01-02T00:00:00Z\",\"value\":1},"
            + "{\"time\":\"2026-01-01T00:00:00Z\",\"value\":1}]}");
    m = assertThrows(IllegalArgumentException.class, () -> ProbeFiles.read(g)).getMessage();
    assertTrue(m.startsWith(g + ": ") && m.contains("is earlier than sample 0"), m);
    Path h = dir.resolve("bad.csv");
    Files.writeString(h, "10,5\n20,x\n");
    m = assertThrows(IllegalArgumentException.class, () -> ProbeFiles.read(h)).getMessage();
    assertEquals(h + ":2: value is not a number: 'x'", m);
  }
}
