package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.braid.coalloc.journal.JournalLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal {@code braid get} writes is exactly what {@code braid provider} reads. */
class ProviderReadsClientJournalTest {

  @TempDir Path dir;

  private int run(StringWriter out, StringWriter err, String... args) {
    return BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void journalOfARealDownload_isReadWithoutRejectionsAndAddsUpToTheFile() throws Exception {
    byte[] data = new byte[3_000_000];
    new Random(5).nextBytes(data);
    Path a = dir.resolve("mirror-a.bin");
    Path b = dir.resolve("mirror-b.bin");
    Files.write(a, data);
    Files.write(b, data);
    Path journal = dir.resolve("journal.jsonl");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        run(
            out,
            err,
            "get",
            "--journal",
            journal.toString(),
            "-o",
            dir.resolve("out.bin").toString(),
            a.toUri().toString(),
            b.toUri().toString());
    assertEquals(0, code, err.toString());
    long lines = Files.readAllLines(journal).size();

    StringWriter sOut = new StringWriter();
    StringWriter sErr = new StringWriter();
    assertEquals(
        0,
        run(sOut, sErr, "provider", "stats", "--format", "braid", journal.toString(), "--json"),
        sErr.toString());
    JsonNode groups = new ObjectMapper().readTree(sOut.toString());
    long bytes = 0;
    long count = 0;
    for (JsonNode g : groups) {
      assertEquals(0, g.get("rejectedLines").asLong(), sErr.toString());
      assertEquals("read", g.get("operation").asText());
      bytes += g.get("bytes").asLong();
      count += g.get("count").asLong() + g.get("failed").asLong();
    }
    // the lines' bytes add up to the file; the provider counts what each replica sent (received,
    // with the ranges another replica delivered first)
    long written = 0;
    long received = 0;
    for (String l : Files.readAllLines(journal)) {
      JournalLine j = JournalLine.parse(l);
      written += j.bytes();
      received += j.received();
    }
    assertEquals(data.length, written);
    assertEquals(received, bytes);
    assertEquals(lines, count);
    assertEquals("", sErr.toString());
  }
}
