package org.braid.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.braid.predictors.Evaluation;
import org.braid.predictors.Forecaster;
import org.braid.predictors.PredictorName;
import org.braid.predictors.Predictors;
import org.braid.predictors.ProbeSeries;
import org.braid.predictors.Series;
import org.braid.predictors.SizeClasses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code braid predict evaluate}: paper 003's Table 1 and Figure 9 for every series in the input.
 */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = {
      "Replay each series in time order and score every predictor: each sample after the",
      "training set is predicted from the samples before it only. Prints, per series, the",
      "normalized percent error and its 95%% confidence limit for the predictors of paper 003's",
      "Figure 4, the Network Weather Service rule (NWS) and Braid's default, without and with",
      "size classes. With probe series (--network, --disk) also the regression models of",
      "Table 1 they allow (G+N, G+D, G+N+D with NoFill, LV, Avg) and 'published', the rule the",
      "provider publishes. --predictor NAME scores only the named predictors (repeatable),",
      "e.g. --predictor 'G+N^3 Avg' --predictor published.",
      "",
      "Formats: csv = 'timestamp,value[,size]' lines (Unix seconds or ISO-8601), one series per",
      "file; slac = SLAC HPSS transfer records (gzip or plain), one series per (fsid, ttype);",
      "gridftp, nginx, apache, braid = transfer logs (docs/provider.md), one series per",
      "(peer, operation)."
    })
final class PredictEvaluateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--format",
      required = true,
      description = "Input format: ${COMPLETION-CANDIDATES}.")
  PredictCommand.Format format;

  @Option(
      names = "--training",
      defaultValue = "15",
      description =
          "Samples that only train before the first scored prediction (default: ${DEFAULT-VALUE}).")
  int training;

  @Option(
      names = "--size-classes",
      defaultValue = "50M,250M,750M",
      description =
          "Lower bounds of the size classes after the first (default: ${DEFAULT-VALUE}, the paper's).")
  String sizeClasses;

  @Option(
      names = "--min-samples",
      defaultValue = "0",
      description = "Skip series with fewer samples (default: ${DEFAULT-VALUE}).")
  int minSamples;

  @Option(
      names = "--json",
      description = "Print one JSON object per (series, predictor, size classes).")
  boolean json;

  @Option(
      names = "--predictor",
      paramLabel = "NAME",
      description = "Score only this predictor (repeatable; names: docs/predictors.md).")
  List<String> predictors;

  @Mixin ProbeOptions probeOptions;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Input files.")
  List<Path> files;

  @Override
  public Integer call() throws Exception {
    if (training < 1) {
      throw new IllegalArgumentException("--training must be at least 1: " + training);
    }
    SizeClasses classes = SizeClasses.parse(sizeClasses);
    ProbeSeries probes = probeOptions.read();
    List<PredictorName> names = new ArrayList<>();
    if (predictors == null) {
      names.addAll(Evaluation.comparedNames(probes));
    } else {
      for (String p : predictors) {
        PredictorName n = PredictorName.parse(p);
        ProbeOptions.require(n, probes);
        names.add(n);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Map<String, Object>> objects = new ArrayList<>();
    for (Series s : PredictCommand.read(format, files, err)) {
      if (s.size() < minSamples) {
        continue;
      }
      List<Evaluation.Row> rows = Evaluation.compare(s, names, probes, classes, training);
      if (json) {
        for (Evaluation.Row r : rows) {
          Map<String, Object> o = new LinkedHashMap<>();
          o.put("series", r.series());
          o.put("predictor", r.predictor());
          o.put("sizeClasses", r.sizeClasses());
          o.put("count", r.score().count());
          o.put("errorPct", r.score().errorPct());
          o.put("ciPct", r.score().ciPct());
          o.put("meanMeasured", r.score().meanMeasured());
          objects.add(o);
        }
      } else {
        print(out, s, rows);
      }
    }
    if (json) {
      out.println(Mappers.indented().writeValueAsString(objects));
    }
    return 0;
  }

  private void print(PrintWriter out, Series s, List<Evaluation.Row> rows) {
    int count = rows.get(0).score().count();
    out.printf(
        Locale.ROOT,
        "%s: %d samples, %d predicted after a training set of %d%n",
        s.name(),
        s.size(),
        count,
        training);
    int width = 10;
    for (Evaluation.Row r : rows) {
      width = Math.max(width, r.predictor().length());
    }
    String name = "  %-" + width + "s";
    out.printf(Locale.ROOT, name + " %21s %21s%n", "", "all samples", "size classes");
    out.printf(
        Locale.ROOT,
        name + " %10s %10s %10s %10s%n",
        "predictor",
        "error %",
        "+-95%",
        "error %",
        "+-95%");
    int half = rows.size() / 2;
    String best = null;
    double bestErr = Double.MAX_VALUE;
    Map<String, Double> braid = new LinkedHashMap<>();
    for (int i = 0; i < half; i++) {
      Evaluation.Row a = rows.get(i);
      Evaluation.Row b = rows.get(i + half);
      out.printf(
          Locale.ROOT,
          name + " %10.2f %10.2f %10.2f %10.2f%n",
          a.predictor(),
          a.score().errorPct(),
          a.score().ciPct(),
          b.score().errorPct(),
          b.score().ciPct());
      boolean fixed = Predictors.figure4().stream().anyMatch(p -> p.name().equals(a.predictor()));
      if (fixed && b.score().count() > 0 && b.score().errorPct() < bestErr) {
        bestErr = b.score().errorPct();
        best = a.predictor();
      }
      if (a.predictor().equals(Forecaster.DEFAULT_NAME)
          || a.predictor().equals(Forecaster.PUBLISHED_NAME)) {
        braid.put(a.predictor(), b.score().errorPct());
      }
    }
    if (best != null && !braid.isEmpty()) {
      StringBuilder line =
          new StringBuilder(
              String.format(
                  Locale.ROOT, "  best of Figure 4 with size classes: %s %.2f%%", best, bestErr));
      String sep = "; ";
      for (Map.Entry<String, Double> e : braid.entrySet()) {
        line.append(
            String.format(
                Locale.ROOT,
                "%s%s %.2f%% (%.3fx)",
                sep,
                e.getKey(),
                e.getValue(),
                bestErr == 0 ? 1.0 : e.getValue() / bestErr));
        sep = ", ";
      }
      out.println(line);
    }
    out.println();
  }
}
