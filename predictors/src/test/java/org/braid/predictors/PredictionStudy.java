package org.braid.predictors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Paper 003's prediction study (section 3.3, Table 1, Figure 9) on a dataset recorded by {@code
 * src/test/study/run-study.sh}: for every mirror and file-size class, every predictor is replayed
 * over the GridFTP transfers the paper's way (each transfer after a 15-value training set predicted
 * from the transfers and probes before its start) and scored with the normalized percent error and
 * its 95% confidence interval.
 *
 * <p>The dataset holds, per mirror {@code mI/}, the transfers ({@code transfers.csv}: start,
 * bandwidth, size) and the probe series ({@code network.csv.gz}, {@code disk_util.csv.gz}, {@code
 * disk_mbps.csv.gz}; D is the disk's MB/s) exported from the provider's store. Times are stretched
 * by {@link #COMPRESSION} around the mirror's first sample, because the run compresses the paper's
 * 5-minute probe period to 2 s: hour and day windows (AVG5hr, AR5d, the Avg fill's day) then span
 * what they span in the paper.
 *
 * <p>Writes {@code results.csv}, {@code correlations.csv} and {@code table.md} into the dataset
 * directory. Run by the driver; {@code PredictionStudyTest} checks the committed numbers.
 */
public final class PredictionStudy {

  /** Probe period in the paper (300 s) over the probe period of the run (2 s). */
  static final long COMPRESSION = 150;

  /**
   * Paper 003's training set: the first 15 transfers are not scored (-Dstudy.training=N for
   * pilots).
   */
  static final int TRAINING = Integer.getInteger("study.training", 15);

  /** Paper 003's size classes (10M, 100M, 500M, 1G boundaries 50, 250, 750 MB) scaled by 1/20. */
  static final SizeClasses CLASSES =
      new SizeClasses(
          new long[] {2_500_000L, 12_500_000L, 37_500_000L},
          List.of("10M/20", "100M/20", "500M/20", "1G/20"));

  /** One scored cell: a predictor on one mirror's transfers of one size class. */
  record Cell(String mirror, String sizeClass, String predictor, Score score) {}

  /**
   * Pearson correlation of a probe series (value at or before each transfer's start) with
   * bandwidth.
   */
  record Correlation(String mirror, String sizeClass, String probe, int count, double r) {}

  /** One mirror's data: transfers and probe series, times already stretched. */
  record Mirror(String name, Series transfers, Series network, Series diskMbps, Series diskUtil) {}

  private PredictionStudy() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: PredictionStudy DATASET_DIR");
    }
    Path dir = Path.of(args[0]);
    List<Mirror> mirrors = load(dir);
    List<Cell> cells = evaluate(mirrors);
    List<Correlation> corr = correlations(mirrors);
    Files.writeString(dir.resolve("results.csv"), StudyReport.resultsCsv(cells));
    Files.writeString(dir.resolve("correlations.csv"), StudyReport.correlationsCsv(corr));
    Files.writeString(dir.resolve("table.md"), StudyReport.table(cells, corr, mirrors));
  }

  /** Reads every {@code m*} directory of the dataset, in name order. */
  static List<Mirror> load(Path dir) throws IOException {
    List<Path> subdirs;
    try (Stream<Path> s = Files.list(dir)) {
      subdirs =
          s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("m[0-9]+"))
              .sorted()
              .toList();
    }
    if (subdirs.isEmpty()) {
      throw new IllegalArgumentException("no mirror directories (m1, m2, ...) in " + dir);
    }
    List<Mirror> out = new ArrayList<>();
    for (Path m : subdirs) {
      Series g = SeriesReaders.readCsv(m.resolve("transfers.csv"));
      Series n = SeriesReaders.readCsv(m.resolve("network.csv.gz"));
      Series dm = SeriesReaders.readCsv(m.resolve("disk_mbps.csv.gz"));
      Series du = SeriesReaders.readCsv(m.resolve("disk_util.csv.gz"));
      long t0 = Long.MAX_VALUE;
      for (Series s : List.of(g, n, dm, du)) {
        if (!s.isEmpty()) {
          t0 = Math.min(t0, s.timeMillis(0));
        }
      }
      String name = m.getFileName().toString();
      out.add(
          new Mirror(
              name,
              stretch(g, t0, "G"),
              stretch(n, t0, "N"),
              stretch(dm, t0, "D"),
              stretch(du, t0, "Dutil")));
    }
    return out;
  }

  private static Series stretch(Series s, long t0, String name) {
    Series.Builder b = Series.builder(name);
    for (int i = 0; i < s.size(); i++) {
      b.add(
          Instant.ofEpochMilli(t0 + (s.timeMillis(i) - t0) * COMPRESSION),
          s.value(i),
          s.sizeBytes(i));
    }
    return b.build();
  }

  /** The transfers of one size class. */
  static Series ofClass(Series g, int c) {
    Series.Builder b = Series.builder(g.name() + "/" + CLASSES.labels().get(c));
    for (int i = 0; i < g.size(); i++) {
      if (CLASSES.classOf(g.sizeBytes(i)) == c) {
        b.add(Instant.ofEpochMilli(g.timeMillis(i)), g.value(i), g.sizeBytes(i));
      }
    }
    return b.build();
  }

  /** The name of the default rule run on one size class's transfers alone. */
  static final String DEFAULT_CLASS_ONLY = "default/class";

  /**
   * Scores every predictor on every mirror and size class with more than the training set. Paper
   * 003's predictors (Figure 4, NWS, Table 1) see the transfers of the class, as in the paper;
   * Braid's {@code default} and {@code published} rules see the mirror's whole log with the size
   * classes as contexts, as the provider runs them, and are scored on the same transfers.
   */
  static List<Cell> evaluate(List<Mirror> mirrors) {
    List<Cell> cells = new ArrayList<>();
    for (Mirror m : mirrors) {
      Series all = m.transfers();
      ProbeSeries probes = new ProbeSeries(m.network(), m.diskMbps());
      Map<String, double[]> wholeLog = new LinkedHashMap<>();
      wholeLog.put(
          Forecaster.DEFAULT_NAME, Evaluation.oneStep(Predictors.defaultPredictor(CLASSES), all));
      wholeLog.put(
          Forecaster.PUBLISHED_NAME,
          Evaluation.oneStep(Predictors.published(probes, CLASSES), all));
      for (int c = 0; c < CLASSES.count(); c++) {
        Series g = ofClass(all, c);
        if (g.size() <= TRAINING) {
          continue;
        }
        String cls = CLASSES.labels().get(c);
        Map<String, Score> scores = scores(g, m.network(), m.diskMbps());
        for (Map.Entry<String, double[]> e : wholeLog.entrySet()) {
          scores.put(e.getKey(), Evaluation.score(g, ofClass(all, c, e.getValue()), TRAINING));
        }
        for (Map.Entry<String, Score> e : scores.entrySet()) {
          cells.add(new Cell(m.name(), cls, e.getKey(), e.getValue()));
        }
      }
    }
    return cells;
  }

  /** The predictions of a whole-log replay at the transfers of one size class, in order. */
  static double[] ofClass(Series all, int c, double[] predictions) {
    double[] out = new double[all.size()];
    int k = 0;
    for (int i = 0; i < all.size(); i++) {
      if (CLASSES.classOf(all.sizeBytes(i)) == c) {
        out[k++] = predictions[i];
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** Paper 003's predictors and the default rule on the transfers of one size class. */
  static Map<String, Score> scores(Series g, Series n, Series d) {
    Map<String, Score> out = new LinkedHashMap<>();
    for (Predictor p : Predictors.figure4()) {
      out.put(p.name(), Evaluation.evaluate(p, g, TRAINING));
    }
    out.put("NWS", Evaluation.evaluate(Predictors.nws(), g, TRAINING));
    out.put(DEFAULT_CLASS_ONLY, Evaluation.evaluate(Predictors.defaultUnclassed(), g, TRAINING));
    for (Multivariate mv : Multivariate.table1()) {
      out.put(mv.name(), mv.evaluate(g, n, d, null, TRAINING));
    }
    return out;
  }

  /** Correlation of each probe series with the bandwidth, per mirror and size class. */
  static List<Correlation> correlations(List<Mirror> mirrors) {
    List<Correlation> out = new ArrayList<>();
    for (Mirror m : mirrors) {
      for (int c = 0; c < CLASSES.count(); c++) {
        Series g = ofClass(m.transfers(), c);
        String cls = CLASSES.labels().get(c);
        out.add(correlation(m.name(), cls, "network 64 KiB probe", g, m.network()));
        out.add(correlation(m.name(), cls, "disk MB/s", g, m.diskMbps()));
        out.add(correlation(m.name(), cls, "disk util %", g, m.diskUtil()));
      }
    }
    return out;
  }

  private static Correlation correlation(
      String mirror, String cls, String probe, Series g, Series s) {
    List<double[]> pairs = new ArrayList<>();
    for (int i = 0; i < g.size(); i++) {
      int j = s.lastIndexAtOrBefore(g.timeMillis(i));
      if (j >= 0) {
        pairs.add(new double[] {s.value(j), g.value(i)});
      }
    }
    return new Correlation(mirror, cls, probe, pairs.size(), pearson(pairs));
  }

  static double pearson(List<double[]> xy) {
    return xy.size() < 3 ? Double.NaN : regression(xy).getR();
  }

  static double slope(List<double[]> xy) {
    return regression(xy).getSlope();
  }

  private static SimpleRegression regression(List<double[]> xy) {
    SimpleRegression r = new SimpleRegression();
    for (double[] p : xy) {
      r.addData(p[0], p[1]);
    }
    return r;
  }
}
