package org.braid.predictors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Paper 003's prediction study (section 3.3, Table 1, Figure 9) on a dataset recorded by {@code
 * src/test/study/run-study.sh}: for every mirror and file-size class, every predictor is replayed
 * over the GridFTP transfers the paper's way (each transfer after a 15-value training set
 * predicted from the transfers and probes before its start) and scored with the normalized percent
 * error and its 95% confidence interval.
 *
 * <p>The dataset holds, per mirror {@code mI/}, the transfers ({@code transfers.csv}: start,
 * bandwidth, size) and the probe series ({@code network.csv.gz}, {@code disk_util.csv.gz},
 * {@code disk_mbps.csv.gz}; D is the disk's MB/s) exported from the provider's store. Times are stretched by {@link #COMPRESSION}
 * around the mirror's first sample, because the run compresses the paper's 5-minute probe period to
 * 2 s: hour and day windows (AVG5hr, AR5d, the Avg fill's day) then span what they span in the
 * paper.
 *
 * <p>Writes {@code results.csv}, {@code correlations.csv} and {@code table.md} into the dataset
 * directory. Run by the driver; {@code PredictionStudyTest} checks the committed numbers.
 */
public final class PredictionStudy {

  /** Probe period in the paper (300 s) over the probe period of the run (2 s). */
  static final long COMPRESSION = 150;

  /** Paper 003's training set: the first 15 transfers are not scored (-Dstudy.training=N for pilots). */
  static final int TRAINING = Integer.getInteger("study.training", 15);

  /** Paper 003's size classes (10M, 100M, 500M, 1G boundaries 50, 250, 750 MB) scaled by 1/20. */
  static final SizeClasses CLASSES =
      new SizeClasses(
          new long[] {2_500_000L, 12_500_000L, 37_500_000L},
          List.of("10M/20", "100M/20", "500M/20", "1G/20"));

  /** The predictors of the table's first block, after Table 1's AVG25. */
  static final List<String> UNIVARIATE_EXTRA = List.of("NWS", "default");

  /** One scored cell: a predictor on one mirror's transfers of one size class. */
  record Cell(String mirror, String sizeClass, String predictor, Score score) {}

  /** Pearson correlation of a probe series (value at or before each transfer's start) with bandwidth. */
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
    Files.writeString(dir.resolve("results.csv"), resultsCsv(cells));
    Files.writeString(dir.resolve("correlations.csv"), correlationsCsv(corr));
    Files.writeString(dir.resolve("table.md"), table(cells, corr, mirrors));
  }

  /** Reads every {@code m*} directory of the dataset, in name order. */
  static List<Mirror> load(Path dir) throws IOException {
    List<Path> subdirs;
    try (Stream<Path> s = Files.list(dir)) {
      subdirs = s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("m[0-9]+")).sorted().toList();
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
      out.add(new Mirror(name, stretch(g, t0, "G"), stretch(n, t0, "N"), stretch(dm, t0, "D"), stretch(du, t0, "Dutil")));
    }
    return out;
  }

  private static Series stretch(Series s, long t0, String name) {
    Series.Builder b = Series.builder(name);
    for (int i = 0; i < s.size(); i++) {
      b.add(Instant.ofEpochMilli(t0 + (s.timeMillis(i) - t0) * COMPRESSION), s.value(i), s.sizeBytes(i));
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

  /** Scores every predictor on every mirror and size class with more than the training set. */
  static List<Cell> evaluate(List<Mirror> mirrors) {
    List<Cell> cells = new ArrayList<>();
    for (Mirror m : mirrors) {
      for (int c = 0; c < CLASSES.count(); c++) {
        Series g = ofClass(m.transfers(), c);
        if (g.size() <= TRAINING) {
          continue;
        }
        String cls = CLASSES.labels().get(c);
        for (Map.Entry<String, Score> e : scores(g, m.network(), m.diskMbps()).entrySet()) {
          cells.add(new Cell(m.name(), cls, e.getKey(), e.getValue()));
        }
      }
    }
    return cells;
  }

  /** Every predictor's score on one series of transfers, in table order. */
  static Map<String, Score> scores(Series g, Series n, Series d) {
    Map<String, Score> out = new LinkedHashMap<>();
    for (Predictor p : Predictors.figure4()) {
      out.put(p.name(), Evaluation.evaluate(p, g, TRAINING));
    }
    out.put("NWS", Evaluation.evaluate(Predictors.nws(), g, TRAINING));
    out.put("default", Evaluation.evaluate(Predictors.defaultUnclassed(), g, TRAINING));
    List<Predictor> regression = new ArrayList<>();
    for (Multivariate mv : Multivariate.table1()) {
      out.put(mv.name(), mv.evaluate(g, n, d, null, TRAINING));
      regression.add(mv.asPredictor(n, d));
    }
    out.put("default+G", Evaluation.evaluate(Predictors.defaultUnclassed("default+G", regression), g, TRAINING));
    out.put("Forecaster", forecasterScore(g, n, d));
    return out;
  }

  /**
   * What the provider publishes, replayed: {@link Forecaster#forecast(Series, Series, Series, long,
   * Instant)} (the default, or the regression model with the lower past error) for each transfer
   * from the transfers before it.
   */
  static Score forecasterScore(Series g, Series n, Series d) {
    Forecaster f = Forecaster.builder().trainingSize(TRAINING).sizeClasses(CLASSES).build();
    double[] p = new double[g.size()];
    for (int i = 0; i < g.size(); i++) {
      p[i] = Double.NaN;
      if (i >= TRAINING) {
        Forecast fc = f.forecast(g.head(i), n, d, g.sizeBytes(i), Instant.ofEpochMilli(g.timeMillis(i)));
        if (fc.isAvailable()) {
          p[i] = fc.value();
        }
      }
    }
    return Evaluation.score(g, p, TRAINING);
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

  private static Correlation correlation(String mirror, String cls, String probe, Series g, Series s) {
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
    int n = xy.size();
    if (n < 3) {
      return Double.NaN;
    }
    double mx = 0;
    double my = 0;
    for (double[] p : xy) {
      mx += p[0] / n;
      my += p[1] / n;
    }
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (double[] p : xy) {
      sxy += (p[0] - mx) * (p[1] - my);
      sxx += (p[0] - mx) * (p[0] - mx);
      syy += (p[1] - my) * (p[1] - my);
    }
    return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
  }

  static double slope(List<double[]> xy) {
    double mx = 0;
    double my = 0;
    for (double[] p : xy) {
      mx += p[0] / xy.size();
      my += p[1] / xy.size();
    }
    double sxy = 0;
    double sxx = 0;
    for (double[] p : xy) {
      sxy += (p[0] - mx) * (p[1] - my);
      sxx += (p[0] - mx) * (p[0] - mx);
    }
    return sxx == 0 ? Double.NaN : sxy / sxx;
  }

  static String resultsCsv(List<Cell> cells) {
    StringBuilder sb = new StringBuilder("mirror,size_class,predictor,scored,error_pct,ci95_pct,mean_bandwidth_Bps\n");
    for (Cell c : cells) {
      sb.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.2f,%.2f,%.0f%n", c.mirror(), c.sizeClass(), c.predictor(),
          c.score().count(), c.score().errorPct(), c.score().ciPct(), c.score().meanMeasured()));
    }
    return sb.toString();
  }

  static String correlationsCsv(List<Correlation> corr) {
    StringBuilder sb = new StringBuilder("mirror,size_class,probe,pairs,pearson_r\n");
    for (Correlation c : corr) {
      sb.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.3f%n", c.mirror(), c.sizeClass(), c.probe(), c.count(), c.r()));
    }
    return sb.toString();
  }

  /** Mean over the size classes of a mirror (the paper's "averages based on different file categories"). */
  static Map<String, double[]> byMirror(List<Cell> cells, String mirror) {
    Map<String, double[]> sums = new LinkedHashMap<>(); // predictor -> {error sum, ci sum, classes, scored}
    for (Cell c : cells) {
      if (mirror == null || c.mirror().equals(mirror)) {
        double[] a = sums.computeIfAbsent(c.predictor(), k -> new double[4]);
        a[0] += c.score().errorPct();
        a[1] += c.score().ciPct();
        a[2]++;
        a[3] += c.score().count();
      }
    }
    for (double[] a : sums.values()) {
      a[0] /= a[2];
      a[1] /= a[2];
    }
    return sums;
  }

  static final List<String> TABLE1 =
      List.of("AVG25", "G+N NoFill", "G+N LV", "G+N Avg", "G+D NoFill", "G+D LV", "G+D Avg",
          "G+N+D NoFill", "G+N+D LV", "G+N+D Avg");

  static final List<String> EXTRA = List.of("default", "default+G", "Forecaster", "NWS");

  static String table(List<Cell> cells, List<Correlation> corr, List<Mirror> mirrors) {
    StringBuilder sb = new StringBuilder();
    List<String> names = new ArrayList<>();
    for (Mirror m : mirrors) {
      names.add(m.name());
    }
    sb.append("Normalized percent prediction error (mean over size classes; 95% confidence interval of the error in brackets)\n\n");
    List<String> cols = new ArrayList<>(TABLE1);
    cols.addAll(EXTRA);
    sb.append("| mirror | ").append(String.join(" | ", cols)).append(" |\n");
    sb.append("|---".repeat(cols.size() + 1)).append("|\n");
    List<String> rows = new ArrayList<>(names);
    rows.add(null);
    for (String m : rows) {
      Map<String, double[]> s = byMirror(cells, m);
      if (s.isEmpty()) {
        continue;
      }
      sb.append("| ").append(m == null ? "all" : m);
      for (String c : cols) {
        double[] a = s.get(c);
        sb.append(a == null ? " | -" : String.format(Locale.ROOT, " | %.1f%% [%.1f]", a[0], a[1]));
      }
      sb.append(" |\n");
    }
    sb.append("\nEvery predictor, mean over mirrors and size classes, best first\n\n");
    sb.append("| predictor | error % | 95% CI | cells | scored transfers |\n|---|---|---|---|---|\n");
    Map<String, double[]> all = byMirror(cells, null);
    all.entrySet().stream()
        .sorted((a, b) -> Double.compare(a.getValue()[0], b.getValue()[0]))
        .forEach(e -> sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.0f | %.0f |%n",
            e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2], e.getValue()[3])));
    sb.append("\nThe transfers: count, mean bandwidth, coefficient of variation (standard deviation / mean),"
        + " and network probes per transfer of the class\n\n");
    sb.append("| mirror | class | transfers | mean MB/s | CV | probes per transfer |\n|---|---|---|---|---|---|\n");
    for (Mirror m : mirrors) {
      for (int c = 0; c < CLASSES.count(); c++) {
        Series g = ofClass(m.transfers(), c);
        if (g.isEmpty()) {
          continue;
        }
        double mean = 0;
        for (int i = 0; i < g.size(); i++) {
          mean += g.value(i) / g.size();
        }
        double var = 0;
        for (int i = 0; i < g.size(); i++) {
          var += (g.value(i) - mean) * (g.value(i) - mean) / Math.max(1, g.size() - 1);
        }
        sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f | %.1f |%n", m.name(),
            CLASSES.labels().get(c), g.size(), mean / 1e6, Math.sqrt(var) / mean,
            (double) m.network().size() / g.size()));
      }
    }
    sb.append("\nG on N after matching and filling, over each whole class series: tuples, Pearson r and"
        + " least-squares slope (B/s of transfer per B/s of probe)\n\n");
    sb.append("| mirror | class | NoFill tuples | r | slope | LV tuples | r | slope | Avg tuples | r | slope |\n");
    sb.append("|---".repeat(11)).append("|\n");
    for (Mirror m : mirrors) {
      for (int c = 0; c < CLASSES.count(); c++) {
        Series g = ofClass(m.transfers(), c);
        if (g.size() < 3) {
          continue;
        }
        sb.append("| ").append(m.name()).append(" | ").append(CLASSES.labels().get(c));
        for (Fill f : Fill.values()) {
          List<Multivariate.Tuple> t =
              Multivariate.of(true, false, f).match(g, m.network(), null, g.size(), g.timeMillis(g.size() - 1));
          List<double[]> xy = new ArrayList<>();
          for (Multivariate.Tuple x : t) {
            xy.add(new double[] {x.n(), x.g()});
          }
          sb.append(String.format(Locale.ROOT, " | %d | %.2f | %.3f", t.size(), pearson(xy), slope(xy)));
        }
        sb.append(" |\n");
      }
    }
    sb.append("\nPearson correlation of each probe (last value before the transfer's start) with bandwidth, per size class\n\n");
    sb.append("| mirror | class | transfers | network 64 KiB probe | disk MB/s | disk util % |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i + 2 < corr.size(); i += 3) {
      Correlation a = corr.get(i);
      sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f | %.2f |%n", a.mirror(), a.sizeClass(),
          a.count(), a.r(), corr.get(i + 1).r(), corr.get(i + 2).r()));
    }
    return sb.toString();
  }

  /** For callers that cannot throw: reads a dataset or fails with the reason. */
  static List<Mirror> loadUnchecked(Path dir) {
    try {
      return load(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
