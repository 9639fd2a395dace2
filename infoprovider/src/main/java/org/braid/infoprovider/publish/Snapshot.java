package org.braid.infoprovider.publish;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;

/**
 * Everything the provider publishes at one moment, computed once and served to every reader.
 *
 * @param computedAt when the statistics were computed
 * @param hostname the server host name published in ads and LDIF
 * @param url the server's access URL (e.g. gsiftp://host:2811), may be empty
 * @param stats statistics per (volume, peer, operation, size class), including all-size rows
 * @param rejections rejected lines per log and reason
 * @param missingLogs whether each configured log was missing at the last poll
 * @param lastSamples the latest point of each probe series
 */
public record Snapshot(
    Instant computedAt,
    String hostname,
    String url,
    List<TransferStats> stats,
    Map<String, Map<String, Long>> rejections,
    Map<String, Boolean> missingLogs,
    Map<String, Point> lastSamples) {

  /**
   * Copies the collections.
   *
   * @throws NullPointerException if any part is null
   */
  public Snapshot {
    Objects.requireNonNull(computedAt, "computedAt");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(url, "url");
    stats = List.copyOf(stats);
    rejections = Map.copyOf(rejections);
    missingLogs = Map.copyOf(missingLogs);
    lastSamples = Map.copyOf(lastSamples);
  }

  /** Total rejected lines over every log and reason. */
  public long rejectedLines() {
    return rejections.values().stream()
        .flatMap(m -> m.values().stream())
        .mapToLong(Long::longValue)
        .sum();
  }
}
