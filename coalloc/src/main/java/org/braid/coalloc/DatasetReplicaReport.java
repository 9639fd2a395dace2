package org.braid.coalloc;

/**
 * What one server contributed to a dataset job.
 *
 * @param server scheme://host:port (or a local directory)
 * @param files files it delivered bytes of
 * @param bytes bytes it delivered into verified files
 * @param meanRate bytes per second of the time it had a request open
 * @param predictedRate the rate the plan predicted, 0 when none
 * @param failures requests that failed (file missing, corrupt data, connection errors...)
 * @param dropped why it was no longer used, or null
 */
public record DatasetReplicaReport(
    String server,
    int files,
    long bytes,
    double meanRate,
    double predictedRate,
    int failures,
    String dropped) {}
