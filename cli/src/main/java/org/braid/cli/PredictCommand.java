package org.braid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.braid.predictors.Series;
import org.braid.predictors.SeriesReaders;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code braid predict}: forecast transfer bandwidth and evaluate predictors on logs. */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    description = {
      "Forecast transfer bandwidth from history and evaluate the predictors.",
      "",
      "Scores are paper 003's: normalized percent error with 95%% confidence limits."
    },
    subcommands = {PredictEvaluateCommand.class, PredictForecastCommand.class})
final class PredictCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The input formats {@code braid predict} reads. */
  enum Format {
    csv,
    slac,
    gridftp,
    nginx,
    apache,
    braid
  }

  /** Reads every file into series; SLAC rows that were skipped are reported on standard error. */
  static List<Series> read(Format format, List<Path> files, PrintWriter err) throws IOException {
    List<Series> out = new java.util.ArrayList<>();
    for (Path f : files) {
      if (!Files.isRegularFile(f)) {
        throw new IllegalArgumentException("no such file: " + f);
      }
      switch (format) {
        case csv -> out.add(SeriesReaders.readCsv(f));
        case slac -> {
          SeriesReaders.Result r = SeriesReaders.readSlac(f);
          if (r.rejected() > 0) {
            err.println(
                "braid: "
                    + f
                    + ": skipped "
                    + r.rejected()
                    + " rows with a zero or bad size or duration (first: "
                    + r.problems().get(0)
                    + ")");
          }
          out.addAll(r.series());
        }
        case gridftp, nginx, apache, braid ->
            out.addAll(ProviderLogSeries.read(format.name(), f, err));
        default -> throw new IllegalStateException("format " + format);
      }
    }
    return out;
  }

  /** A bandwidth in bytes per second, written with a decimal unit ("41.2 MB/s"). */
  static String rate(double bytesPerSecond) {
    String[] units = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
    double v = bytesPerSecond;
    int u = 0;
    while (v >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
