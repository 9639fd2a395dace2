package org.braid.provider.publish;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;

/**
 * Everything the provider publishes at one moment, computed once and served to every reader.
 *
 * @param computedAt when the statistics were computed
 * @param hostname the server host name published in ads and LDIF
 * @param stats statistics per endpoint (null for host-level) and (volume, peer, operation, size
 *     class), including all-size rows
 * @param rejections rejected lines per log and reason
 * @param missingLogs whether each configured log was missing at the last poll
 * @param lastSamples the latest point of each probe series
 * @param volumes the space of each configured volume, by volume name (sorted)
 */
public record Snapshot(
    Instant computedAt,
    String hostname,
    List<ScopedStats> stats,
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
    stats = List.copyOf(stats);
    rejections = Map.copyOf(rejections);
    missingLogs = Map.copyOf(missingLogs);
    lastSamples = Map.copyOf(lastSamples);
    volumes = Collections.unmodifiableMap(new TreeMap<>(volumes));
  }

  /** The same snapshot with other volume space figures. */
  public Snapshot withVolumes(Map<String, VolumeSpace> v) {
    return new Snapshot(computedAt, hostname, stats, rejections, missingLogs, lastSamples, v);
  }

  /** The same snapshot with other missing-log states. */
  public Snapshot withMissingLogs(Map<String, Boolean> m) {
    return new Snapshot(computedAt, hostname, stats, rejections, m, lastSamples, volumes);
  }

  /** The endpoints with statistics, in order of first appearance (null for host-level ones). */
  public Set<Endpoint> scopes() {
    Set<Endpoint> out = new LinkedHashSet<>();
    for (ScopedStats s : stats) {
      out.add(s.endpoint());
    }
    return out;
  }

  /** Total rejected lines over every log and reason. */
  public long rejectedLines() {
    return rejections.values().stream()
        .flatMap(m -> m.values().stream())
        .mapToLong(Long::longValue)
        .sum();
  }
}
