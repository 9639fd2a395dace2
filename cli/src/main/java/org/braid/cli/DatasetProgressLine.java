package org.braid.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;
import org.braid.coalloc.DatasetProgress;
import org.braid.coalloc.Reports;

/** One progress line for a dataset: files done of total, bytes, rate, ETA; redrawn in place. */
final class DatasetProgressLine implements Consumer<DatasetProgress> {
  private final PrintWriter err;
  private boolean drawn;

  DatasetProgressLine(PrintWriter err) {
    this.err = err;
  }

  @Override
  public synchronized void accept(DatasetProgress p) {
    err.print("\r" + render(p) + "   ");
    err.flush();
    drawn = true;
  }

  /** The line without the carriage return. */
  static String render(DatasetProgress p) {
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%d/%d files%s  %s/%s  %s  ETA %s  %d in flight",
                p.filesDone(),
                p.filesTotal(),
                p.filesFailed() > 0 ? " (" + p.filesFailed() + " failed)" : "",
                Reports.bytes(p.bytesDone()),
                Reports.bytes(p.bytesTotal()),
                Reports.rate(p.rate()),
                eta(p.etaSeconds()),
                p.inFlight()));
    return sb.toString();
  }

  static String eta(double s) {
    if (!Double.isFinite(s)) {
      return "--";
    }
    long t = Math.round(s);
    return t >= 3600
        ? String.format(Locale.ROOT, "%dh%02dm", t / 3600, t / 60 % 60)
        : String.format(Locale.ROOT, "%dm%02ds", t / 60, t % 60);
  }

  /** Ends the progress line. */
  synchronized void finish() {
    if (drawn) {
      err.print("\r" + " ".repeat(100) + "\r");
      err.flush();
    }
  }
}
