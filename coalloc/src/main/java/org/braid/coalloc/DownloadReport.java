package org.braid.coalloc;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a verified download.
 *
 * @param id the short id used in logs and the journal
 * @param output the final file
 * @param scheme the scheme's name
 * @param bytes the file size
 * @param resumedBytes bytes taken from an earlier, interrupted run
 * @param start when the transfer started
 * @param seconds transfer time (from the first request to the last byte, without verification)
 * @param throughput bytes fetched in this run per second of transfer time
 * @param digests hex digests of the output by algorithm; always includes {@code sha-256}
 * @param replicas one entry per replica, in the order given
 * @param events every request, for traces and timelines
 */
public record DownloadReport(
    String id,
    Path output,
    String scheme,
    long bytes,
    long resumedBytes,
    Instant start,
    double seconds,
    double throughput,
    Map<String, String> digests,
    List<ReplicaReport> replicas,
    List<BlockEvent> events) {

  /** Checks nothing; copies the collections. */
  public DownloadReport {
    digests = Map.copyOf(digests);
    replicas = List.copyOf(replicas);
    events = List.copyOf(events);
  }

  /** The SHA-256 of the output in hex. */
  public String sha256() {
    return digests.get("sha-256");
  }
}
