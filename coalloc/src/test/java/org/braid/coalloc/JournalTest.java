package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
  @TempDir Path dir;

  @Test
  void line_hasExactFieldsInOrder() {
    Journal j = new Journal(dir.resolve("j"), "ab12cd34");
    BlockEvent e = new BlockEvent(0, 0, 100, 350, 200, 1_000_000, 2_500_000_000L, "ok");
    String line =
        j.line(
            e,
            URI.create("https://example.org/data/f.bin"),
            1000,
            Instant.parse("2026-11-22T04:00:00Z"));
    assertTrue(
        line.matches(
            "\\{\"v\":1,\"download\":\"ab12cd34\",\"url\":\"https://example.org/data/f.bin\","
                + "\"server\":\"example.org:443\",\"peer\":\"[^\"]+\",\"path\":\"/data/f.bin\","
                + "\"offset\":100,\"bytes\":200,\"fileSize\":1000,"
                + "\"start\":\"2026-11-22T04:00:00.001Z\",\"end\":\"2026-11-22T04:00:02.500Z\","
                + "\"streams\":1,\"protocol\":\"https\",\"result\":\"ok\"\\}"),
        line);
  }

  @Test
  void line_errorResultKeepsReason() {
    Journal j = new Journal(dir.resolve("j"), "x");
    BlockEvent e = new BlockEvent(0, 0, 0, 5, 5, 0, 1, "error: http://h/f: HTTP 503");
    String line = j.line(e, URI.create("http://h:8080/f"), 10, Instant.EPOCH);
    assertTrue(line.contains("\"server\":\"h:8080\""), line);
    assertTrue(line.endsWith("\"result\":\"error: http://h/f: HTTP 503\"}"), line);
  }

  @Test
  void defaultPath_followsEnvironment() {
    assertEquals(
        Path.of("/j.jsonl"), Journal.defaultPath(Map.of("BRAID_JOURNAL", "/j.jsonl"), "/h"));
    assertEquals(
        Path.of("/x/braid/journal.jsonl"),
        Journal.defaultPath(Map.of("XDG_DATA_HOME", "/x"), "/h"));
    assertEquals(
        Path.of("/h/.local/share/braid/journal.jsonl"), Journal.defaultPath(Map.of(), "/h"));
  }

  @Test
  void download_appendsOneParsableLinePerRequest() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", 3_000_000, 5);
    Path journal = dir.resolve("sub/journal.jsonl");
    try (Mirror a = Mirror.builder(src).rate(4e6).start();
        Mirror b = Mirror.builder(src).rate(2e6).start()) {
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), b.uri()))
              .output(dir.resolve("out"))
              .journal(journal)
              .build()
              .run();
      List<String> lines = Files.readAllLines(journal);
      long expected =
          r.events().stream()
              .filter(e -> e.written() > 0 || e.result().startsWith("error"))
              .count();
      assertEquals(expected, lines.size());
      ObjectMapper om = new ObjectMapper();
      long written = 0;
      for (String l : lines) {
        JsonNode n = om.readTree(l);
        assertEquals(1, n.get("v").asInt());
        assertEquals(r.id(), n.get("download").asText());
        assertEquals(3_000_000, n.get("fileSize").asLong());
        assertEquals("http", n.get("protocol").asText());
        assertEquals("/data.bin", n.get("path").asText());
        assertTrue(n.get("server").asText().startsWith("127.0.0.1:"));
        assertTrue(
            Instant.parse(n.get("start").asText()).compareTo(Instant.parse(n.get("end").asText()))
                <= 0);
        written += n.get("bytes").asLong();
      }
      assertEquals(3_000_000, written);
    }
  }
}
