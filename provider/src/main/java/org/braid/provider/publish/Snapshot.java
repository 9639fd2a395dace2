package org.braid.provider.publish;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.braid.infoprovider.VolumeSpace;
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
 * @param volumes the space of each configured volume, by volume name (sorted)
 */
public record Snapshot(
    Instant computedAt,
    String hostname,
    String url,
    List<TransferStats> stats,
    Map<String, Map<String, Long>> rejections,
    Map<String, Boolean> missingLogs,
    Map<String, Point> lastSamples,
    Map<String, VolumeSpace> volumes) {

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
    volumes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(volumes));
  }

  /** The same snapshot with other volume space figures. */
  public Snapshot withVolumes(Map<String, VolumeSpace> v) {
    return new Snapshot(computedAt, hostname, url, stats, rejections, missingLogs, lastSamples, v);
  }

  /** The same snapshot published under another host name and URL. */
  public Snapshot withHost(String host, String serverUrl) {
    return new Snapshot(
        computedAt, host, serverUrl, stats, rejections, missingLogs, lastSamples, volumes);
  }

  /** Total rejected lines over every log and reason. */
  public long rejectedLines() {
    return rejections.values().stream()
        .flatMap(m -> m.values().stream())
        .mapToLong(Long::longValue)
        .sum();
  }
}
