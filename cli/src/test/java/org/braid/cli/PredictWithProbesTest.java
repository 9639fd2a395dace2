package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.SeriesJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code braid predict} with probe series: the regression models and the published rule. */
class PredictWithProbesTest {

  @TempDir Path dir;

  private String out;
  private String err;
  private Path transfers;
  private Path network;

  private int run(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(o), new PrintWriter(e), args);
    out = o.toString();
    err = e.toString();
    return code;
  }

  /** A probe every 20 s; a 10 MB transfer every 60 s at exactly twice the probe just before. */
  @BeforeEach
  void data() throws IOException {
    StringBuilder n = new StringBuilder("# time,probe bandwidth\n");
    StringBuilder g = new StringBuilder("# start,bandwidth,size\n");
    for (int i = 0; i < 120; i++) {
      double probe = 1_000_000 + (i * 37 % 50) * 20_000;
      n.append(1_000_000 + i * 20).append(',').append(probe).append('\n');
      if (i % 3 == 2) {
        g.append(1_000_000 + i * 20 + 1).append(',').append(2 * probe).append(",10000000\n");
      }
    }
    network = dir.resolve("network.csv");
    transfers = dir.resolve("transfers.csv");
    Files.writeString(network, n);
    Files.writeString(transfers, g);
  }

  @Test
  void forecast_tableOneModel_withNetworkProbes_isExact() {
    assertEquals(
        0,
        run(
            "predict",
            "forecast",
            "--format",
            "csv",
            "--size",
            "10M",
            "--predictor",
            "g+n_nofill",
            "--network",
            network.toString(),
            "--at",
            "1970-01-12T13:47:00Z",
            transfers.toString()));
    // the last probe (i = 119) is 1,000,000 + (119 * 37 % 50) * 20,000 = 1,060,000: twice that
    assertEquals(
        "transfers.csv: 2.12000e+06, past error 0.0% +- 0.0 points (95%), from 40 samples;"
            + " G+N NoFill chose G+N NoFill\n",
        out);
    assertEquals("", err);
  }

  @Test
  void forecast_published_withProbes_usesTheRegression() {
    assertEquals(
        0,
        run(
            "predict",
            "forecast",
            "--format",
            "csv",
            "--size",
            "10M",
            "--network",
            network.toString(),
            "--at",
            "1970-01-12T13:47:00Z",
            transfers.toString()));
    assertTrue(out.startsWith("transfers.csv: 2.12000e+06, past error "), out);
    assertTrue(out.contains("; published chose G+N"), out);
    // without the probe series the same history gives a univariate forecast
    assertEquals(
        0, run("predict", "forecast", "--format", "csv", "--size", "10M", transfers.toString()));
    assertTrue(out.contains("; published chose ") && !out.contains("G+N"), out);
  }

  @Test
  void forecast_regressionWithoutItsProbes_isAUsageError() {
    assertEquals(
        2,
        run(
            "predict",
            "forecast",
            "--format",
            "csv",
            "--size",
            "1M",
            "--predictor",
            "G+N+D LV",
            "--network",
            network.toString(),
            transfers.toString()));
    assertEquals("braid: G+N+D LV needs a disk load series: --disk FILE\n", err);
    assertEquals(
        2,
        run(
            "predict",
            "forecast",
            "--format",
            "csv",
            "--size",
            "1M",
            "--predictor",
            "G+N",
            transfers.toString()));
    assertEquals("braid: unknown predictor: 'G+N' (see docs/predictors.md for the names)\n", err);
  }

  @Test
  void evaluate_namedModels_withTheProvidersJsonExport() throws IOException {
    List<Point> points = new ArrayList<>();
    for (String line : Files.readAllLines(network)) {
      if (!line.startsWith("#")) {
        String[] f = line.split(",");
        points.add(
            new Point(Instant.ofEpochSecond(Long.parseLong(f[0])), Double.parseDouble(f[1])));
      }
    }
    Path json = dir.resolve("network.json");
    Files.writeString(json, SeriesJson.write(new SeriesJson.Answer("network/p/bandwidth", points)));
    String[] args = {
      "predict",
      "evaluate",
      "--format",
      "csv",
      "--predictor",
      "G+N NoFill",
      "--predictor",
      "LV",
      "--predictor",
      "published",
      "--network",
      null,
      transfers.toString()
    };
    args[11] = json.toString();
    assertEquals(0, run(args));
    String fromJson = out;
    args[11] = network.toString();
    assertEquals(0, run(args));
    assertEquals(fromJson, out);
    assertEquals(
        "transfers.csv: 40 samples, 25 predicted after a training set of 15\n"
            + "                       all samples          size classes\n"
            + "  predictor     error %      +-95%    error %      +-95%\n"
            + "  G+N NoFill       0.00       0.00       0.00       0.00\n"
            + "  LV              23.63       6.72      23.63       6.72\n"
            + "  published        6.10       1.44       0.50       1.04\n"
            + "  best of Figure 4 with size classes: LV 23.63%; published 0.50% (0.021x)\n\n",
        out);
  }

  @Test
  void badProbeFile_isAOneLineErrorWithFileAndLine() throws IOException {
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "1,2\n2,-1\n");
    assertEquals(
        2,
        run(
            "predict",
            "evaluate",
            "--format",
            "csv",
            "--disk",
            bad.toString(),
            transfers.toString()));
    assertEquals(
        "braid: "
            + bad
            + ":2: sample value must be finite and not negative: -1.0 at 1970-01-01T00:00:02Z\n",
        err);
    assertEquals(
        2,
        run(
            "predict",
            "evaluate",
            "--format",
            "csv",
            "--network",
            "/nonexistent",
            transfers.toString()));
    assertEquals("braid: no such file: /nonexistent\n", err);
  }

  @Test
  void help_namesTheProbeOptionsAndModels() {
    assertEquals(0, run("predict", "forecast", "--help"));
    assertTrue(out.contains("--network=FILE") && out.contains("--disk=FILE"), out);
    assertTrue(out.contains("'G+N NoFill'") && out.contains("published"), out);
    assertEquals(0, run("predict", "evaluate", "--help"));
    assertTrue(out.contains("--predictor=NAME") && out.contains("Table 1"), out);
  }
}
