package org.braid.coalloc;

import java.util.Map;

/**
 * What became of one file of a dataset.
 *
 * @param path the relative path
 * @param size the size in bytes (-1 when it never became known)
 * @param status {@code fetched} (verified in this run), {@code skipped} (verified by an earlier
 *     run, not fetched again) or {@code failed}
 * @param seconds how long fetching it took (0 when skipped or never started)
 * @param sha256 its SHA-256 in hex, or null when it failed
 * @param servers bytes each server (scheme://host:port, or a local directory) delivered into it
 * @param error why it failed (every replica's reason), or null
 */
public record DatasetFileReport(
    String path,
    long size,
    String status,
    double seconds,
    String sha256,
    Map<String, Long> servers,
    String error) {
  /** Copies the map. */
  public DatasetFileReport {
    servers = Map.copyOf(servers);
  }

  /** Whether the file is verified (fetched or skipped). */
  public boolean ok() {
    return !status.equals("failed");
  }
}
