package org.braid.coalloc;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a dataset job knows about one server (scheme://host:port, or a local replica's directory):
 * its predicted and measured rates, request latency, load, failures. Fields other than {@link
 * #delivered} are guarded by the {@link DatasetScheduler}'s lock.
 */
final class DatasetServer {
  /** A measured rate replaces the prediction after this much busy time. */
  static final long MEASURED_AFTER_NANOS = 1_000_000_000L;

  /** Time constant of the measured rate's moving average. */
  static final double TAU_SECONDS = 2.0;

  /** The first-byte times of this many recent requests make the request latency. */
  static final int LATENCY_WINDOW = 8;

  /**
   * A server idle this long while work waits has its latency measured again: its estimate does not
   * count until then.
   */
  static final long STALE_LATENCY_NANOS = 1_000_000_000L;

  final String key;

  /** The plan's rate, 0 when none (set again when a plan arrives late). */
  double predicted;

  /** Bytes received from this server by every request of the job (any thread). */
  final LongAdder delivered = new LongAdder();

  double measured;

  /** The rate of one request (one file over one connection) as measured, 0 until known. */
  double flow;

  long busyNanos;
  private final double[] firstBytes = new double[LATENCY_WINDOW];
  private int firstByteCount;
  private double latency;
  int running;
  private long idleSince = Long.MIN_VALUE;
  int streak;
  long backoffUntil;
  String dropped;
  int failures;
  int files;
  long bytes;
  boolean told;
  private long lastSample = Long.MIN_VALUE;
  private long lastDelivered;

  DatasetServer(String key, double predicted) {
    this.key = key;
    this.predicted = predicted;
  }

  /**
   * The servers of the file's sources, in their order: those already in {@code servers} (by {@link
   * #key}), others added there with their predicted rate (0 when none).
   */
  static DatasetServer[] of(
      DatasetFile f, Map<String, DatasetServer> servers, Map<String, Double> predicted) {
    DatasetServer[] ss = new DatasetServer[f.sources().size()];
    for (int k = 0; k < ss.length; k++) {
      String key = key(f.sources().get(k), f.path());
      ss[k] =
          servers.computeIfAbsent(key, x -> new DatasetServer(x, predicted.getOrDefault(x, 0.0)));
    }
    return ss;
  }

  /**
   * The server of a source: {@code scheme://host:port} (the scheme's default port when the URL has
   * none); for a local file, the replica's directory: the URL without the file's relative path, or
   * its parent directory.
   */
  static String key(URI uri, String relative) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("file") || uri.getHost() == null) {
      String s = uri.toString();
      String suffix = DatasetNames.encode(relative);
      if (s.endsWith("/" + suffix)) {
        return s.substring(0, s.length() - suffix.length());
      }
      return s.substring(0, s.lastIndexOf('/') + 1);
    }
    return scheme + "://" + Journal.server(uri);
  }

  /** Whether the rate is measured (busy long enough). */
  boolean measuredEnough() {
    return busyNanos >= MEASURED_AFTER_NANOS && measured > 0;
  }

  /** The rate to plan with: measured, else predicted, else the given default. */
  double rate(double fallback) {
    return measuredEnough() ? measured : predicted > 0 ? predicted : fallback;
  }

  /**
   * Folds the bytes received since the last sample into the measured rate if the server was busy
   * meanwhile (an exponential moving average with time constant {@link #TAU_SECONDS}).
   */
  void sample(long now) {
    long d = delivered.sum();
    if (running > 0 && lastSample != Long.MIN_VALUE && now > lastSample) {
      double dt = (now - lastSample) / 1e9;
      double r = (d - lastDelivered) / dt;
      double a = 1 - Math.exp(-dt / TAU_SECONDS);
      measured = busyNanos == 0 ? r : measured + a * (r - measured);
      busyNanos += now - lastSample;
    }
    lastSample = now;
    lastDelivered = d;
  }

  /** Whether the server may be given work now. */
  boolean usable(long now) {
    return dropped == null && now - backoffUntil >= 0;
  }

  /**
   * Records a failed request: a transient one backs off (exponentially, or for as long as the
   * server's {@code Retry-After} asks), {@code maxStreak} in a row drop the server, and so does a
   * {@code Retry-After} longer than {@code maxRetryAfter}.
   */
  void failed(
      long now,
      boolean transientFailure,
      String reason,
      Duration retryAfter,
      int maxStreak,
      Duration maxRetryAfter) {
    failures++;
    if (retryAfter != null && retryAfter.compareTo(maxRetryAfter) > 0) {
      if (dropped == null) {
        dropped =
            "asks to retry after "
                + retryAfter.toSeconds()
                + " s, more than the "
                + maxRetryAfter.toSeconds()
                + " s allowed (--max-retry-after): "
                + reason;
      }
      return;
    }
    if (!transientFailure) {
      return;
    }
    streak++;
    long ms = (long) Math.min(30_000, 500 * Math.pow(2, streak - 1));
    if (retryAfter != null) {
      ms = Math.max(ms, retryAfter.toMillis());
    }
    backoffUntil = now + ms * 1_000_000L;
    if (streak >= maxStreak && dropped == null) {
      dropped = streak + " failures in a row, the last: " + reason;
    }
  }

  /**
   * Folds the rate of one whole-file request that ran alone on the server (bytes over the time from
   * its first byte) into {@link #flow}. One that shared the server measured its share of the link,
   * not what one request can get: taken as a cap, such rates made every idle server look two to
   * four times slower than it is to the tail's split, which then cut files where the slow server's
   * part ended last.
   */
  void flowed(double bytesPerSecond) {
    if (bytesPerSecond > 0 && Double.isFinite(bytesPerSecond)) {
      flow = flow == 0 ? bytesPerSecond : flow + 0.3 * (bytesPerSecond - flow);
    }
  }

  /**
   * The rate one more request would get: its share of the server's rate, at most the rate of one
   * request as measured (a server or path may cap each connection).
   */
  double requestRate(double fallback) {
    double share = rate(fallback) / (running + 1);
    return flow > 0 ? Math.min(share, flow) : share;
  }

  /**
   * Records a request that delivered, with its latency to the first byte in seconds (negative:
   * unknown). The request latency is the shortest of the last {@value #LATENCY_WINDOW}: a first
   * byte that came late because the server's link was busy with the other files in flight is
   * already counted by their bytes (the backlog), and one slowed by this client's own start (class
   * loading, compilation, a first connection) says nothing of the server.
   */
  void succeeded(double firstByteSeconds) {
    streak = 0;
    if (firstByteSeconds >= 0) {
      firstBytes[firstByteCount++ % LATENCY_WINDOW] = firstByteSeconds;
      double min = Double.MAX_VALUE;
      for (int i = 0; i < Math.min(firstByteCount, LATENCY_WINDOW); i++) {
        min = Math.min(min, firstBytes[i]);
      }
      latency = min;
    }
  }

  /**
   * The request latency to plan with now: the measured one ({@link #succeeded}), or 0 while the
   * server has been idle for {@link #STALE_LATENCY_NANOS} or more, so that an idle server whose
   * estimate came from a few slow requests is given work again and measured anew rather than left
   * idle for the rest of the job.
   */
  double latency(long now) {
    return running == 0 && idleSince != Long.MIN_VALUE && now - idleSince >= STALE_LATENCY_NANOS
        ? 0
        : latency;
  }

  /** Counts a task started on the server. */
  void started() {
    running++;
  }

  /** Counts a task of the server ended at {@code now}. */
  void ended(long now) {
    running--;
    if (running == 0) {
      idleSince = now;
    }
  }
}
