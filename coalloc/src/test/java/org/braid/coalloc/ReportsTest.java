package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {
  @TempDir Path dir;

  static DownloadReport report(Path out) {
    return new DownloadReport(
        "abcd1234",
        out,
        "adaptive",
        3_000_000,
        0,
        Instant.parse("2026-11-22T04:00:00Z"),
        2.0,
        1_500_000,
        Map.of("sha-256", "00".repeat(32)),
        List.of(
            new ReplicaReport(URI.create("http://a/f"), 2_000_000, 2_000_000, 2, 1e6, 0.5, 0, null),
            new ReplicaReport(
                URI.create("http://b/f"),
                1_000_000,
                1_100_000,
                1,
                5e5,
                0.0,
                1,
                "http://b/f: HTTP 500")),
        List.of(
            new BlockEvent(0, 0, 0, 1_000_000, 1_000_000, 0, 1_000_000_000L, "ok"),
            new BlockEvent(1, 0, 1_000_000, 2_100_000, 1_000_000, 0, 2_000_000_000L, "ok"),
            new BlockEvent(
                0,
                0,
                2_000_000,
                3_000_000,
                1_000_000,
                1_000_000_000L,
                1_500_000_000L,
                "error: x")));
  }

  @Test
  void json_hasTheDocumentedFields() throws Exception {
    JsonNode n = new ObjectMapper().readTree(Reports.json(report(dir.resolve("o"))));
    assertEquals(3_000_000, n.get("bytes").asLong());
    assertEquals(2.0, n.get("seconds").asDouble());
    assertEquals(1_500_000, n.get("throughput").asLong());
    assertEquals("00".repeat(32), n.get("sha256").asText());
    JsonNode b = n.get("replicas").get(1);
    assertEquals("http://b/f", b.get("url").asText());
    assertEquals(1_000_000, b.get("bytes").asLong());
    assertEquals(1, b.get("blocks").asInt());
    assertEquals(500_000, b.get("meanRate").asLong());
    assertEquals(0.0, b.get("idleSeconds").asDouble());
    assertEquals("http://b/f: HTTP 500", b.get("dropped").asText());
    assertTrue(n.get("replicas").get(0).get("dropped").isNull());
  }

  @Test
  void text_isATable() {
    String t = Reports.text(report(dir.resolve("o")));
    List<String> lines = t.lines().toList();
    assertEquals(
        dir.resolve("o") + ": 2.9 MiB in 2.00 s, 12.0 Mbit/s (scheme adaptive)", lines.get(0));
    assertEquals(
        "  http://a/f                                      1.9 MiB      2   8.0 Mbit/s"
            + "     0.50",
        lines.get(3));
    assertTrue(lines.get(4).endsWith("  dropped: http://b/f: HTTP 500"), lines.get(4));
  }

  @Test
  void trace_csvAndJsonLines() throws Exception {
    DownloadReport r = report(dir.resolve("o"));
    Path csv = dir.resolve("t.csv");
    Reports.writeTrace(r, csv);
    List<String> lines = Files.readAllLines(csv);
    assertEquals("replica,url,connection,offset,end,written,start_s,end_s,result", lines.get(0));
    assertEquals("0,http://a/f,0,0,1000000,1000000,0.000000,1.000000,ok", lines.get(1));
    assertEquals(4, lines.size());
    Path jsonl = dir.resolve("t.jsonl");
    Reports.writeTrace(r, jsonl);
    List<String> j = Files.readAllLines(jsonl);
    assertEquals(3, j.size());
    JsonNode n = new ObjectMapper().readTree(j.get(2));
    assertEquals("error: x", n.get("result").asText());
    assertEquals(2_000_000, n.get("offset").asLong());
  }

  @Test
  void plot_writesAPng() throws Exception {
    Path png = dir.resolve("t.png");
    Reports.writePlot(report(dir.resolve("o")), png);
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(1100, img.getWidth());
    assertTrue(img.getHeight() > 100);
  }
}
