package org.braid.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.braid.coalloc.Dataset;
import org.braid.coalloc.Download;
import org.braid.coalloc.SourceOptions;
import picocli.CommandLine.Option;

/**
 * How politely and how fast {@code braid get} talks to the replicas, as curl users expect: tries,
 * the low-speed limit, a rate limit and extra headers. A picocli mixin.
 */
final class TransferOptions {

  @Option(
      names = "--max-tries",
      defaultValue = "4",
      paramLabel = "N",
      description =
          "Drop a replica after N failed requests in a row; a probe answered 503/429 with"
              + " Retry-After is asked again up to N times (default: ${DEFAULT-VALUE}). With -d:"
              + " a server failing N requests in a row is dropped and a file is tried in up to N"
              + " rounds over its replicas (default: 6 and 3).")
  int maxTries;

  @Option(
      names = {"-Y", "--low-speed-limit"},
      defaultValue = "1024",
      paramLabel = "BYTES/S",
      description =
          "A request slower than this on average over --low-speed-time fails, and its replica"
              + " backs off, then is dropped; 0 turns it off (default: ${DEFAULT-VALUE}).")
  String lowSpeedLimit;

  @Option(
      names = {"-y", "--low-speed-time"},
      defaultValue = "30",
      paramLabel = "SECONDS",
      description = "The time for --low-speed-limit (default: ${DEFAULT-VALUE}).")
  double lowSpeedTime;

  @Option(
      names = "--limit-rate",
      paramLabel = "RATE",
      description =
          "Receive at most RATE from all replicas together, e.g. 500k (bytes/s), 10MB/s, 80Mbit/s;"
              + " with -d, RATE for each file (the job takes up to -j times RATE).")
  String limitRate;

  @Option(
      names = "--max-retry-after",
      defaultValue = "60",
      paramLabel = "SECONDS",
      description =
          "Wait at most this long when a replica answers Retry-After; one asking for longer is"
              + " dropped (default: ${DEFAULT-VALUE}).")
  double maxRetryAfter;

  @Option(
      names = {"-H", "--header"},
      paramLabel = "'NAME: VALUE'",
      description =
          "Send this HTTP header to each replica's own host (not to hosts it redirects to);"
              + " repeatable. An Authorization header goes to https and davs replicas only, unless"
              + " --allow-insecure-token.")
  List<String> headers = new ArrayList<>();

  /**
   * Applies the guards of one download (tries, low-speed and rate limits, Retry-After); throws
   * IllegalArgumentException naming a bad one.
   */
  void apply(Download.Builder d) {
    d.maxTries(maxTries);
    long low = lowSpeedLimit.trim().equals("0") ? 0 : (long) Units.rate(lowSpeedLimit);
    d.lowSpeedLimit(low, GetCommand.seconds(lowSpeedTime, "--low-speed-time"));
    if (limitRate != null) {
      d.maxBytesPerSecond(Math.max(1, (long) Units.rate(limitRate)));
    }
    d.maxRetryAfter(maxRetryAfter());
  }

  /**
   * Applies the guards to each file of a dataset: the low-speed limit per request, the rate limit
   * per file, the longest Retry-After; --max-tries only when given (a dataset has its own
   * defaults). Throws IllegalArgumentException naming a bad one.
   */
  void apply(Dataset.Builder d, boolean triesGiven) {
    if (triesGiven) {
      if (maxTries < 1 || maxTries > 100) {
        throw new IllegalArgumentException("--max-tries must be in [1, 100]: " + maxTries);
      }
      d.maxTries(maxTries);
    }
    long low = lowSpeedLimit.trim().equals("0") ? 0 : (long) Units.rate(lowSpeedLimit);
    d.lowSpeedLimit(low, GetCommand.seconds(lowSpeedTime, "--low-speed-time"));
    if (limitRate != null) {
      d.maxBytesPerSecond(Math.max(1, (long) Units.rate(limitRate)));
    }
    d.maxRetryAfter(maxRetryAfter());
  }

  private Duration maxRetryAfter() {
    if (!(maxRetryAfter >= 0) || maxRetryAfter > 86_400) {
      throw new IllegalArgumentException(
          "--max-retry-after must be in [0, 86400] seconds: " + maxRetryAfter);
    }
    return Duration.ofMillis((long) (maxRetryAfter * 1000));
  }

  /** Whether a {@code --header} option names an Authorization header. */
  boolean authorizationHeader() {
    return headers.stream()
        .anyMatch(
            h ->
                h.indexOf(':') > 0
                    && h.substring(0, h.indexOf(':')).trim().equalsIgnoreCase("Authorization"));
  }

  /**
   * Adds the {@code --header} options (one file or a dataset); throws IllegalArgumentException
   * naming a bad one.
   */
  void headers(SourceOptions.Builder so) {
    for (String h : headers) {
      int c = h.indexOf(':');
      if (c < 1) {
        throw new IllegalArgumentException("--header must look like 'Name: value': '" + h + "'");
      }
      so.header(h.substring(0, c).trim(), h.substring(c + 1).trim());
    }
  }
}
