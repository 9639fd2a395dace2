package org.braid.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.braid.predictors.Forecast;
import org.braid.predictors.Forecaster;
import org.braid.predictors.PredictorName;
import org.braid.predictors.ProbeSeries;
import org.braid.predictors.Series;
import org.braid.predictors.SizeClasses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code braid predict forecast}: the accuracy triplet for the next transfer of a given size. */
@Command(
    name = "forecast",
    mixinStandardHelpOptions = true,
    description = {
      "Forecast the bandwidth of the next transfer of the given size for each series, with the",
      "paper's accuracy triplet: predicted value, average past normalized percent error, and",
      "the 95%% confidence interval of that error. Too little history is said explicitly.",
      "",
      "The predictor: 'published' (default), what the provider publishes: Braid's default rule,",
      "with the regression models of paper 003's Table 1 among its candidates when probe series",
      "are given (--network, --disk); 'default' (the rule without probes); a Table 1 model such",
      "as 'G+N NoFill', 'G+D LV', 'G+N+D Avg', 'G+N^3 Avg' (needs its probe series); or a",
      "univariate rule: NWS, AVG25, MED15, AR5d, LV, ES0.3, ... (docs/predictors.md). Size",
      "classes are the paper's; the probe series apply to every series read."
    })
final class PredictForecastCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--format",
      required = true,
      description = "Input format: ${COMPLETION-CANDIDATES}.")
  PredictCommand.Format format;

  @Option(
      names = "--size",
      required = true,
      description = "Size of the next transfer in bytes; suffixes K, M, G, T are powers of 1000.")
  String size;

  @Option(
      names = "--series",
      description = "Only the series with this name (e.g. fsid=11,ttype=0).")
  String seriesName;

  @Option(
      names = "--at",
      description =
          "When the transfer starts: ISO-8601 or 'now' (default: the time of the last sample).")
  String at;

  @Option(
      names = "--predictor",
      defaultValue = "published",
      paramLabel = "NAME",
      description = "Predictor name, see above (default: ${DEFAULT-VALUE}).")
  String predictor;

  @Mixin ProbeOptions probeOptions;

  @Option(
      names = "--training",
      defaultValue = "15",
      description = "Fewest samples to forecast from (default: ${DEFAULT-VALUE}).")
  int training;

  @Option(names = "--json", description = "Print one JSON object per series.")
  boolean json;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Input files.")
  List<Path> files;

  @Override
  public Integer call() throws Exception {
    long bytes = SizeClasses.parseSize(size);
    PredictorName name = PredictorName.parse(predictor);
    ProbeSeries probes = probeOptions.read();
    ProbeOptions.require(name, probes);
    Forecaster forecaster =
        Forecaster.builder().model(name.toString()).trainingSize(training).build();
    PrintWriter out = spec.commandLine().getOut();
    List<Map<String, Object>> objects = new ArrayList<>();
    boolean found = false;
    for (Series s : PredictCommand.read(format, files, spec.commandLine().getErr())) {
      if (seriesName != null && !seriesName.equals(s.name())) {
        continue;
      }
      found = true;
      Instant when = when(s);
      Forecast f = forecaster.forecast(s, probes, bytes, when);
      if (json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("series", s.name());
        o.put("predictor", f.predictor());
        o.put("chosen", f.chosen());
        o.put("status", f.status().name());
        o.put("value", f.value());
        o.put("errorPct", f.errorPct());
        o.put("ciPct", f.ciPct());
        o.put("low", f.low());
        o.put("high", f.high());
        o.put("history", f.history());
        o.put("scored", f.scored());
        o.put("size", bytes);
        o.put("at", when.toString());
        objects.add(o);
      } else if (!f.isAvailable()) {
        out.printf(
            Locale.ROOT,
            "%s: insufficient history (%d samples, need %d)%n",
            s.name(),
            f.history(),
            training);
      } else {
        String value =
            format == PredictCommand.Format.slac
                ? PredictCommand.rate(f.value())
                : String.format(Locale.ROOT, "%.6g", f.value());
        out.printf(
            Locale.ROOT,
            "%s: %s, past error %.1f%% +- %.1f points (95%%), from %d samples; %s chose %s%n",
            s.name(),
            value,
            f.errorPct(),
            f.ciPct(),
            f.history(),
            f.predictor(),
            f.chosen());
      }
    }
    if (!found) {
      throw new IllegalArgumentException(
          seriesName == null ? "no series in the input" : "no series named '" + seriesName + "'");
    }
    if (json) {
      out.println(Mappers.indented().writeValueAsString(objects));
    }
    return 0;
  }

  private Instant when(Series s) {
    if (at == null) {
      return s.isEmpty() ? Instant.EPOCH : s.get(s.size() - 1).time();
    }
    if (at.equals("now")) {
      return Instant.now();
    }
    try {
      return Instant.parse(at);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--at is neither ISO-8601 nor 'now': '" + at + "'");
    }
  }
}
