package org.braid.infoprovider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.braid.infoprovider.logs.LogFiles;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.stats.StatsAccumulator;
import org.braid.infoprovider.stats.TransferStats;

/** One-shot statistics from whole log files: no daemon, no database. */
public final class TransferLogs {

  /**
   * Statistics of some logs.
   *
   * @param stats per (volume, peer, operation, size class, and all sizes), with the default
   *     predictor's forecast when one was asked for
   * @param report lines read, skipped and rejected, with examples
   */
  public record Statistics(List<TransferStats> stats, ParseReport report) {
    /** Copies the list. */
    public Statistics {
      stats = List.copyOf(stats);
    }
  }

  private TransferLogs() {}

  /**
   * Reads whole log files of one format (gzip-compressed ones too) into statistics without
   * forecasts; malformed lines are counted in the report, never fatal.
   *
   * @throws IllegalArgumentException if a log file does not exist
   * @throws IOException if one cannot be read
   */
  public static Statistics statistics(LogFormat format, List<Path> logs) throws IOException {
    return read(format, logs, null);
  }

  /**
   * Like {@link #statistics}, with the default predictor's forecasts as of {@code at}.
   *
   * @throws IllegalArgumentException if a log file does not exist
   * @throws IOException if one cannot be read
   */
  public static Statistics forecasts(LogFormat format, List<Path> logs, Instant at)
      throws IOException {
    return read(format, logs, at);
  }

  private static Statistics read(LogFormat format, List<Path> logs, Instant at) throws IOException {
    ParseReport report = new ParseReport();
    StatsAccumulator acc = new StatsAccumulator();
    for (Path log : logs) {
      if (!Files.isRegularFile(log)) {
        throw new IllegalArgumentException("log file not found: " + log);
      }
      LogFiles.read(log, format, acc::add, report);
    }
    return new Statistics(
        at == null ? acc.result() : acc.result(ForecastInputs.univariate(at)), report);
  }
}
