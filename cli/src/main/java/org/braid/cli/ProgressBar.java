package org.braid.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;
import org.braid.coalloc.Progress;
import org.braid.coalloc.Reports;

/** A one-line progress bar with per-replica rates, redrawn in place on a terminal. */
final class ProgressBar implements Consumer<Progress> {
  private final PrintWriter err;
  private boolean drawn;

  ProgressBar(PrintWriter err) {
    this.err = err;
  }

  @Override
  public synchronized void accept(Progress p) {
    double frac = p.size() == 0 ? 1 : (double) p.bytesDone() / p.size();
    int width = 24;
    int full = (int) Math.round(frac * width);
    StringBuilder sb = new StringBuilder("\r[");
    sb.append("#".repeat(full)).append(" ".repeat(width - full)).append("] ");
    sb.append(String.format(Locale.ROOT, "%5.1f%% %s ", frac * 100, Reports.bytes(p.bytesDone())));
    double sum = 0;
    StringBuilder per = new StringBuilder();
    for (int i = 0; i < p.replicaRates().size(); i++) {
      double r = p.replicaRates().get(i);
      sum += r;
      per.append(String.format(Locale.ROOT, " r%d %.0f", i + 1, r * 8 / 1e6));
    }
    sb.append(String.format(Locale.ROOT, "%.1f Mbit/s (", sum * 8 / 1e6)).append(per.substring(1));
    sb.append(")   ");
    err.print(sb);
    err.flush();
    drawn = true;
  }

  /** Ends the progress line. */
  synchronized void finish() {
    if (drawn) {
      err.print("\r" + " ".repeat(100) + "\r");
      err.flush();
    }
  }
}
