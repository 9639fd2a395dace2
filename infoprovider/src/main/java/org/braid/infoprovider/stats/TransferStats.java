package org.braid.infoprovider.stats;

import java.time.Instant;
import java.util.Objects;
import org.braid.predictors.Forecast;

/**
 * Statistics of the successful transfers of one {@link StatsKey}: the paper's minrdbandwidth,
 * maxrdbandwidth, avgrdbandwidth and per-size-class averages come from here. Bandwidths are in
 * bytes per second; the standard deviation is the sample one (0 for a single transfer).
 *
 * @param key what the statistics are for
 * @param count successful transfers
 * @param failed transfers that did not succeed (not in the bandwidth figures)
 * @param bytes bytes moved by the successful transfers
 * @param minBandwidth lowest bandwidth
 * @param maxBandwidth highest bandwidth
 * @param meanBandwidth arithmetic mean of the bandwidths
 * @param stddevBandwidth sample standard deviation of the bandwidths
 * @param medianBandwidth median of the bandwidths (paper 003, section 3.1)
 * @param lastBandwidth bandwidth of the transfer that ended last
 * @param lastTime when the last transfer ended
 * @param forecast the forecast triplet for the next transfer of this group (paper 003, section
 *     3.3.2), or null when forecasts were not asked for
 */
public record TransferStats(
    StatsKey key,
    long count,
    long failed,
    long bytes,
    double minBandwidth,
    double maxBandwidth,
    double meanBandwidth,
    double stddevBandwidth,
    double medianBandwidth,
    double lastBandwidth,
    Instant lastTime,
    Forecast forecast) {

  /**
   * Checks the statistics.
   *
   * @throws NullPointerException if key or lastTime is null
   * @throws IllegalArgumentException if count is below 1 or failed or bytes negative
   */
  public TransferStats {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(lastTime, "lastTime");
    if (count < 1) {
      throw new IllegalArgumentException("count must be positive: " + count);
    }
    if (failed < 0 || bytes < 0) {
      throw new IllegalArgumentException(
          "failed and bytes must not be negative: " + failed + ", " + bytes);
    }
  }

  /** A copy with the given forecast (null for none). */
  public TransferStats withForecast(Forecast f) {
    return new TransferStats(
        key,
        count,
        failed,
        bytes,
        minBandwidth,
        maxBandwidth,
        meanBandwidth,
        stddevBandwidth,
        medianBandwidth,
        lastBandwidth,
        lastTime,
        f);
  }
}
