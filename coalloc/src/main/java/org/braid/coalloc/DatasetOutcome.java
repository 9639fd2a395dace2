package org.braid.coalloc;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a {@link DatasetTask} ended.
 *
 * @param ok whether the file is verified and has its final name
 * @param size the file's size (-1 when unknown)
 * @param digests its digests, when ok
 * @param servers bytes each server delivered into the file, when ok
 * @param failures each source that failed, with its reason
 * @param local a failure of this machine (the output cannot be written), or null
 * @param mismatch whether a co-allocated copy failed its checksum (the replica is unknown)
 * @param cancelled whether the task was cancelled (lost the race, or the job stopped)
 */
record DatasetOutcome(
    boolean ok,
    long size,
    Map<String, String> digests,
    Map<String, Long> servers,
    List<Failure> failures,
    String local,
    boolean mismatch,
    boolean cancelled) {

  /**
   * One source's failure.
   *
   * @param source the replica
   * @param reason one line
   * @param transientFailure whether asking the same replica again later may succeed
   * @param retryAfter how long the replica asked to be left alone ({@code Retry-After}), or null
   */
  record Failure(URI source, String reason, boolean transientFailure, Duration retryAfter) {
    Failure(URI source, String reason, boolean transientFailure) {
      this(source, reason, transientFailure, null);
    }
  }

  static DatasetOutcome ok(long size, Map<String, String> digests, Map<String, Long> servers) {
    return new DatasetOutcome(true, size, digests, servers, List.of(), null, false, false);
  }

  static DatasetOutcome failed(long size, List<Failure> failures, boolean mismatch) {
    return new DatasetOutcome(false, size, Map.of(), Map.of(), failures, null, mismatch, false);
  }

  static DatasetOutcome local(long size, String why) {
    return new DatasetOutcome(false, size, Map.of(), Map.of(), List.of(), why, false, false);
  }

  static DatasetOutcome cancelled(long size) {
    return new DatasetOutcome(false, size, Map.of(), Map.of(), List.of(), null, false, true);
  }
}
