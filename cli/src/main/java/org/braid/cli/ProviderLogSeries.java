package org.braid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.stats.TransferSeries;
import org.braid.predictors.Series;

/** Transfer logs (GridFTP, nginx, Apache, Braid journal) as series for {@code braid predict}. */
final class ProviderLogSeries {

  private ProviderLogSeries() {}

  /** One series per (peer, operation); rejected lines are reported on standard error. */
  static List<Series> read(String format, Path file, PrintWriter err) throws IOException {
    ParseReport report = new ParseReport();
    List<Series> series = TransferSeries.read(LogFormat.parse(format), List.of(file), report);
    if (report.rejected() > 0) {
      err.println(
          "braid: "
              + file
              + ": skipped "
              + report.rejected()
              + " malformed lines (first: "
              + report.examples().get(0)
              + ")");
    }
    return series;
  }
}
