package org.braid.predictors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.braid.predictors.PredictionStudy.Cell;
import org.braid.predictors.PredictionStudy.Correlation;
import org.braid.predictors.PredictionStudy.Mirror;

/**
 * The prediction study's output files: {@code results.csv}, {@code correlations.csv} and {@code
 * table.md} (the table in the layout of paper 003's Table 1, the ranking of every predictor, the
 * transfers per class, the fits behind the filling techniques, and the probes' correlations).
 */
final class StudyReport {

  private StudyReport() {}

  static String resultsCsv(List<Cell> cells) {
    StringBuilder sb =
        new StringBuilder(
            "mirror,size_class,predictor,scored,error_pct,ci95_pct,mean_bandwidth_Bps\n");
    for (Cell c : cells) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%s,%s,%s,%d,%.2f,%.2f,%.0f%n",
              c.mirror(),
              c.sizeClass(),
              c.predictor(),
              c.score().count(),
              c.score().errorPct(),
              c.score().ciPct(),
              c.score().meanMeasured()));
    }
    return sb.toString();
  }

  static String correlationsCsv(List<Correlation> corr) {
    StringBuilder sb = new StringBuilder("mirror,size_class,probe,pairs,pearson_r\n");
    for (Correlation c : corr) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%s,%s,%s,%d,%.3f%n",
              c.mirror(),
              c.sizeClass(),
              c.probe(),
              c.count(),
              c.r()));
    }
    return sb.toString();
  }

  /**
   * Mean over the size classes of a mirror (the paper's "averages based on different file
   * categories"). A class where the predictor scored no transfer is left out: its error of 0 is no
   * measurement, and would rank the predictor best.
   */
  static Map<String, double[]> byMirror(List<Cell> cells, String mirror) {
    Map<String, double[]> sums =
        new LinkedHashMap<>(); // predictor -> {error sum, ci sum, classes, scored}
    for (Cell c : cells) {
      if (c.score().count() > 0 && (mirror == null || c.mirror().equals(mirror))) {
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

  /** The columns of paper 003's Table 1: AVG25, then the nine regression models in its order. */
  static final List<String> TABLE1 =
      java.util.stream.Stream.concat(
              java.util.stream.Stream.of("AVG25"),
              Multivariate.table1().stream().map(Multivariate::name))
          .toList();

  static final List<String> EXTRA = List.of("NWS", "default", "published");

  /** The columns of the study's table: Table 1's, then NWS and Braid's rules. */
  static List<String> columns() {
    List<String> cols = new ArrayList<>(TABLE1);
    cols.addAll(EXTRA);
    return cols;
  }

  static String table(List<Cell> cells, List<Correlation> corr, List<Mirror> mirrors) {
    StringBuilder sb = new StringBuilder();
    List<String> names = new ArrayList<>();
    for (Mirror m : mirrors) {
      names.add(m.name());
    }
    sb.append(
        "Normalized percent prediction error (mean over size classes; 95% confidence interval of the error in brackets)\n\n");
    List<String> cols = columns();
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
    sb.append(
        "| predictor | error % | 95% CI | cells | scored transfers |\n|---|---|---|---|---|\n");
    Map<String, double[]> all = byMirror(cells, null);
    all.entrySet().stream()
        .sorted((a, b) -> Double.compare(a.getValue()[0], b.getValue()[0]))
        .forEach(
            e ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "| %s | %.2f | %.2f | %.0f | %.0f |%n",
                        e.getKey(),
                        e.getValue()[0],
                        e.getValue()[1],
                        e.getValue()[2],
                        e.getValue()[3])));
    sb.append(
        "\nThe transfers: count, mean bandwidth, coefficient of variation (standard deviation / mean),"
            + " and network probes per transfer of the class\n\n");
    sb.append(
        "| mirror | class | transfers | mean MB/s | CV | probes per transfer |\n|---|---|---|---|---|---|\n");
    for (Mirror m : mirrors) {
      for (int c = 0; c < PredictionStudy.CLASSES.count(); c++) {
        Series g = PredictionStudy.ofClass(m.transfers(), c);
        if (g.isEmpty()) {
          continue;
        }
        SummaryStatistics st = new SummaryStatistics();
        for (int i = 0; i < g.size(); i++) {
          st.addValue(g.value(i));
        }
        double mean = st.getMean();
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %.2f | %.2f | %.1f |%n",
                m.name(),
                PredictionStudy.CLASSES.labels().get(c),
                g.size(),
                mean / 1e6,
                st.getStandardDeviation() / mean,
                (double) m.network().size() / g.size()));
      }
    }
    sb.append(
        "\nG on N after matching and filling, over each whole class series: tuples, Pearson r and"
            + " least-squares slope (B/s of transfer per B/s of probe)\n\n");
    sb.append(
        "| mirror | class | NoFill tuples | r | slope | LV tuples | r | slope | Avg tuples | r | slope |\n");
    sb.append("|---".repeat(11)).append("|\n");
    for (Mirror m : mirrors) {
      for (int c = 0; c < PredictionStudy.CLASSES.count(); c++) {
        Series g = PredictionStudy.ofClass(m.transfers(), c);
        if (g.size() < 3) {
          continue;
        }
        sb.append("| ")
            .append(m.name())
            .append(" | ")
            .append(PredictionStudy.CLASSES.labels().get(c));
        for (Fill f : Fill.values()) {
          List<Multivariate.Tuple> t =
              Multivariate.of(true, false, f)
                  .match(g, m.network(), null, g.size(), g.timeMillis(g.size() - 1));
          List<double[]> xy = new ArrayList<>();
          for (Multivariate.Tuple x : t) {
            xy.add(new double[] {x.n(), x.g()});
          }
          sb.append(
              String.format(
                  Locale.ROOT,
                  " | %d | %.2f | %.3f",
                  t.size(),
                  PredictionStudy.pearson(xy),
                  PredictionStudy.slope(xy)));
        }
        sb.append(" |\n");
      }
    }
    sb.append(
        "\nPearson correlation of each probe (last value before the transfer's start) with bandwidth, per size class\n\n");
    sb.append(
        "| mirror | class | transfers | network 64 KiB probe | disk MB/s | disk util % |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i + 2 < corr.size(); i += 3) {
      Correlation a = corr.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.2f | %.2f | %.2f |%n",
              a.mirror(),
              a.sizeClass(),
              a.count(),
              a.r(),
              corr.get(i + 1).r(),
              corr.get(i + 2).r()));
    }
    return sb.toString();
  }
}
