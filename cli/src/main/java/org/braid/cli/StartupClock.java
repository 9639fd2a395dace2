package org.braid.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Milestones of one {@code braid} run for start-up measurements, printed on standard error at exit
 * when {@code BRAID_TIMING=1}: one line {@code braid: timing: NAME=MS ...}, each the wall-clock
 * time in milliseconds since the launcher started ({@code BRAID_TIMING_T0}, the epoch seconds the
 * launcher script sets from bash's {@code EPOCHREALTIME}) or, without it, since the JVM started.
 * {@code origin} says which; {@code jvm} is when the JVM started (millisecond resolution). Off (the
 * default), every call returns at once and nothing is loaded. Used from the command's thread only;
 * not thread-safe.
 */
final class StartupClock {
  /** Whether milestones are recorded; read once. */
  static final boolean ON = "1".equals(System.getenv("BRAID_TIMING"));

  private static final List<String> NAMES = new ArrayList<>();
  private static final List<Instant> TIMES = new ArrayList<>();

  /**
   * How long after the first milestone the JVM's start time is looked up on a thread of its own.
   * The look-up loads the management classes (about 35 ms of a cold JVM): done at exit, it made
   * every timed run end that much later (the benchmarks time runs with {@code BRAID_TIMING=1});
   * delayed, it keeps off the start too. A run shorter than this looks it up at exit.
   */
  static final long JVM_LOOKUP_DELAY_MILLIS = 1000;

  private static Thread lookup;

  /** The JVM's start time once looked up ({@link #lookUpJvmStart}), or null. */
  static volatile Instant jvmStart;

  private StartupClock() {}

  /** Records the milestone {@code name} now. */
  static void mark(String name) {
    if (ON) {
      if (lookup == null) {
        lookup = lookUpJvmStart(JVM_LOOKUP_DELAY_MILLIS);
      }
      at(name, Instant.now());
    }
  }

  /**
   * Starts a daemon thread that records the JVM's start time after {@code delayMillis}, for {@link
   * #line} to print without loading the management classes at exit; returns the thread.
   */
  static Thread lookUpJvmStart(long delayMillis) {
    Thread t = new Thread(new Lookup(delayMillis), "braid-timing");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * The look-up, a class rather than a lambda: the first lambda of a run makes the JVM generate
   * classes at run time (about 20 ms before {@code built} in a timed run; the class-data archive
   * holds this one only when it was recorded with timing on, which it is not).
   */
  private static final class Lookup implements Runnable {
    private final long delayMillis;

    Lookup(long delayMillis) {
      this.delayMillis = delayMillis;
    }

    @Override
    public void run() {
      try {
        Thread.sleep(delayMillis);
      } catch (InterruptedException e) {
        return;
      }
      jvmStart = jvmStartNow();
    }
  }

  private static Instant jvmStartNow() {
    return Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
  }

  /** Records the milestone {@code name} at {@code when} (e.g. a time from a download's report). */
  static void at(String name, Instant when) {
    if (ON) {
      NAMES.add(name);
      TIMES.add(when);
    }
  }

  /** Prints the milestones recorded so far as one line on {@code err}, if on. */
  static void print(PrintWriter err) {
    if (ON) {
      err.println(line(System.getenv("BRAID_TIMING_T0")));
      err.flush();
    }
  }

  /** The line for the milestones, measured from launcher start {@code t0} (or the JVM's start). */
  static String line(String t0) {
    return line(t0, NAMES, TIMES);
  }

  /** The line for the milestones {@code names} at {@code times}. */
  static String line(String t0, List<String> names, List<Instant> times) {
    // looked up early in a long run, else now (the management classes it loads are not part of
    // a run without BRAID_TIMING)
    Instant known = jvmStart;
    Instant jvm = known != null ? known : jvmStartNow();
    Instant launcher = parseEpoch(t0);
    Instant origin = launcher == null ? jvm : launcher;
    StringBuilder sb = new StringBuilder("braid: timing:");
    sb.append(" origin=").append(launcher == null ? "jvm" : "launcher");
    millis(sb.append(" jvm="), origin, jvm);
    for (int i = 0; i < names.size(); i++) {
      millis(sb.append(' ').append(names.get(i)).append('='), origin, times.get(i));
    }
    return sb.toString();
  }

  /**
   * Appends the milliseconds from {@code from} to {@code to} with one decimal (no formatter: the
   * line is written as the run ends, by code not compiled yet).
   */
  private static void millis(StringBuilder sb, Instant from, Instant to) {
    long micros =
        (to.getEpochSecond() - from.getEpochSecond()) * 1_000_000L
            + (to.getNano() - from.getNano()) / 1000;
    long tenths = Math.round(micros / 100.0);
    if (tenths < 0) {
      sb.append('-');
      tenths = -tenths;
    }
    sb.append(tenths / 10).append('.').append(tenths % 10);
  }

  /** Epoch seconds with a fraction ("1700000000.123456", or with a comma); null if not that. */
  static Instant parseEpoch(String s) {
    if (s == null) {
      return null;
    }
    int point = -1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((c == '.' || c == ',') && point < 0) {
        point = i;
      } else if (c < '0' || c > '9') {
        return null;
      }
    }
    int whole = point < 0 ? s.length() : point;
    int fraction = point < 0 ? 0 : s.length() - point - 1;
    if (whole < 1 || whole > 12 || (point >= 0 && (fraction < 1 || fraction > 9))) {
      return null;
    }
    long nanos =
        point < 0 ? 0 : Long.parseLong((s.substring(point + 1) + "000000000").substring(0, 9));
    return Instant.ofEpochSecond(Long.parseLong(s.substring(0, whole)), nanos);
  }
}
