package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PredictCommandTest {

  @TempDir Path dir;

  private String out;
  private String err;

  private int run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(o), new PrintWriter(e), args);
    out = o.toString();
    err = e.toString();
    return code;
  }

  private Path csv(int n) throws IOException {
    StringBuilder b = new StringBuilder("timestamp,value\n");
    for (int i = 0; i < n; i++) {
      b.append(i * 60).append(',').append(100 + (i % 3)).append('\n');
    }
    Path f = dir.resolve("s.csv");
    Files.writeString(f, b);
    return f;
  }

  @Test
  void forecast_csv_printsTheTriplet() throws IOException {
    Path f = csv(30);
    assertEquals(
        0,
        run(
            "predict",
            "forecast",
            "--format",
            "csv",
            "--size",
            "1M",
            "--predictor",
            "LV",
            f.toString()));
    // LV predicts the last value, 102; its one-step errors over samples 1..29 sum to 38
    // (20 steps of 1, 9 of 2) against a mean of 2930 / 29: 38 / 2930 * 100 = 1.30%
    assertTrue(out.startsWith("s.csv: 102.000, past error 1.3% +- "), out);
    assertTrue(out.contains("from 30 samples; LV chose LV"), out);
  }

  @Test
  void forecast_tooLittleHistory_saysSo() throws IOException {
    Path f = csv(5);
    assertEquals(0, run("predict", "forecast", "--format", "csv", "--size", "1M", f.toString()));
    assertEquals("s.csv: insufficient history (5 samples, need 15)\n", out);
  }

  @Test
  void forecast_json_hasTheFields() throws IOException {
    Path f = csv(5);
    assertEquals(
        0, run("predict", "forecast", "--format", "csv", "--size", "1M", "--json", f.toString()));
    JsonNode o = new ObjectMapper().readTree(out).get(0);
    assertEquals("INSUFFICIENT_HISTORY", o.get("status").asText());
    assertEquals(0.0, o.get("value").asDouble());
    assertEquals("published", o.get("predictor").asText());
  }

  @Test
  void evaluate_json_hasOneObjectPerSeriesPredictorAndClassing() throws IOException {
    Path f = csv(40);
    assertEquals(0, run("predict", "evaluate", "--format", "csv", "--json", f.toString()));
    JsonNode a = new ObjectMapper().readTree(out);
    assertEquals(2 * 17, a.size()); // Figure 4's 15, NWS and default, with and without classes
    JsonNode first = a.get(0);
    assertEquals("s.csv", first.get("series").asText());
    assertEquals("AVG", first.get("predictor").asText());
    assertEquals(false, first.get("sizeClasses").asBoolean());
    assertEquals(25, first.get("count").asInt());
    assertTrue(first.has("errorPct") && first.has("ciPct"));
    assertEquals("default", a.get(33).get("predictor").asText());
    assertEquals(true, a.get(33).get("sizeClasses").asBoolean());
  }

  @Test
  void evaluate_badLine_failsWithFileLineAndReason() throws IOException {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "1,2\n2,-5\n");
    assertEquals(2, run("predict", "evaluate", "--format", "csv", f.toString()));
    assertEquals(
        "braid: "
            + f
            + ":2: sample value must be finite and not negative: -5.0 at 1970-01-01T00:00:02Z\n",
        err);
  }

  @Test
  void evaluate_missingFile_isAOneLineError() {
    assertEquals(2, run("predict", "evaluate", "--format", "slac", "/nonexistent.csv"));
    assertEquals("braid: no such file: /nonexistent.csv\n", err);
  }

  @Test
  void forecast_badSize_isAOneLineError() throws IOException {
    Path f = csv(20);
    assertEquals(2, run("predict", "forecast", "--format", "csv", "--size", "lots", f.toString()));
    assertEquals("braid: not a size in bytes: 'lots'\n", err);
  }
}
