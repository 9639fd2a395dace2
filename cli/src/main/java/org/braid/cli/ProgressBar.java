package org.braid.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Locale;
import java.util.function.Consumer;
import org.braid.coalloc.Progress;
import org.braid.coalloc.Reports;

/**
 * A one-line progress display on a terminal's standard error, redrawn in place and never wider than
 * the terminal: a bar, percent, bytes done of the total, rate, ETA and, where there is room, each
 * replica's rate. While it is shown, whatever else is written to {@link System#err} (log warnings)
 * is printed above it, never inside it. Used only when standard error is a terminal. Thread-safe.
 */
final class ProgressBar implements Consumer<Progress>, AutoCloseable {
  private final PrintWriter err;
  private final int columns;
  private final PrintStream saved;
  private String line = "";

  /**
   * Shows progress on {@code err}, {@code columns} wide, and routes {@link System#err} above it
   * until {@link #close()}.
   */
  ProgressBar(PrintWriter err, int columns) {
    this.err = err;
    this.columns = columns;
    this.saved = System.err;
    System.setErr(new PrintStream(new Above(), true, Charset.defaultCharset()));
  }

  @Override
  public synchronized void accept(Progress p) {
    line = render(p, columns);
    err.print("\r" + line + "\033[K");
    err.flush();
  }

  /** The progress line for the given state, at most {@code columns - 1} characters. */
  static String render(Progress p, int columns) {
    double frac = p.size() == 0 ? 1 : Math.min(1, (double) p.bytesDone() / p.size());
    double rate = 0;
    StringBuilder per = new StringBuilder();
    for (int i = 0; i < p.replicaRates().size(); i++) {
      double r = p.replicaRates().get(i);
      rate += r;
      per.append(String.format(Locale.ROOT, " r%d %.0f", i + 1, r * 8 / 1e6));
    }
    String eta = rate <= 0 ? "--:--" : duration((p.size() - p.bytesDone()) / rate);
    String text =
        String.format(
            Locale.ROOT,
            " %3.0f%% %s/%s %s/s ETA %s",
            frac * 100,
            Reports.bytes(p.bytesDone()),
            Reports.bytes(p.size()),
            Reports.bytes(rate),
            eta);
    String replicas = per.length() == 0 ? "" : " (" + per.substring(1) + " Mbit/s)";
    int room = columns - 1;
    if (text.length() + replicas.length() + 12 <= room) {
      text += replicas;
    }
    int barWidth = Math.min(40, room - text.length() - 2);
    if (barWidth < 5) {
      return text.trim().length() <= room ? text.trim() : text.trim().substring(0, room);
    }
    int full = (int) Math.floor(frac * barWidth);
    return "[" + "#".repeat(full) + "-".repeat(barWidth - full) + "]" + text;
  }

  private static String duration(double seconds) {
    if (!(seconds < 360_000)) {
      return "--:--";
    }
    long s = (long) Math.ceil(seconds);
    return s >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  /** Prints a complete line of other output above the progress line. */
  private synchronized void above(byte[] b, int len) {
    err.print("\r\033[K");
    err.flush();
    saved.write(b, 0, len);
    saved.flush();
    if (!line.isEmpty()) {
      err.print(line);
      err.flush();
    }
  }

  /** Clears the progress line and gives {@link System#err} back. */
  @Override
  public synchronized void close() {
    System.setErr(saved);
    if (!line.isEmpty()) {
      err.print("\r\033[K");
      err.flush();
    }
  }

  /** Collects what is written to {@link System#err} and prints each whole line above the bar. */
  private final class Above extends OutputStream {
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      pending.write(b);
      if (b == '\n' || pending.size() >= 8192) {
        above(pending.toByteArray(), pending.size());
        pending.reset();
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      for (int i = 0; i < len; i++) {
        write(b[off + i]);
      }
    }

    @Override
    public synchronized void flush() {
      // whole lines only: a partial line waits for its end
    }
  }
}
