package org.braid.coalloc;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The outcome of a dataset job: totals, every file, every server.
 *
 * @param id the job's short id (in logs)
 * @param directory the output directory
 * @param files one entry per file, in the job's order
 * @param servers one entry per server
 * @param start when the job started
 * @param seconds the job's wall-clock time
 * @param bytes the verified files' total size (fetched and skipped)
 * @param fetchedBytes bytes received in this run
 * @param stopped why the job stopped before trying every file (cancelled, a disk failure), or null
 */
public record DatasetReport(
    String id,
    Path directory,
    List<DatasetFileReport> files,
    List<DatasetReplicaReport> servers,
    Instant start,
    double seconds,
    long bytes,
    long fetchedBytes,
    String stopped) {

  /** Copies the lists. */
  public DatasetReport {
    files = List.copyOf(files);
    servers = List.copyOf(servers);
  }

  /** Files with the given status ({@code fetched}, {@code skipped}, {@code failed}). */
  public int count(String status) {
    return (int) files.stream().filter(f -> f.status().equals(status)).count();
  }

  /** The files that failed. */
  public List<DatasetFileReport> failures() {
    return files.stream().filter(f -> !f.ok()).toList();
  }

  /** Whether every file is verified. */
  public boolean complete() {
    return stopped == null && files.stream().allMatch(DatasetFileReport::ok);
  }

  /** Bytes received in this run per second of the job. */
  public double throughput() {
    return seconds > 0 ? fetchedBytes / seconds : 0;
  }
}
