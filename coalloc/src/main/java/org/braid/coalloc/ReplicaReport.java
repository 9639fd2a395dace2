package org.braid.coalloc;

import java.net.URI;

/**
 * What one replica contributed to a download.
 *
 * @param uri the replica
 * @param bytes bytes of the output file it delivered
 * @param receivedBytes bytes it sent, including ranges another replica delivered first
 * @param blocks requests that delivered at least one byte
 * @param meanRate received bytes per second of busy time (time with a request open)
 * @param idleSeconds time of the download during which it had no request open: waiting on the
 *     others (paper 003, Figure 19), backing off, or unused
 * @param failures failed requests
 * @param dropped why it was dropped, or null if it stayed in use
 */
public record ReplicaReport(
    URI uri,
    long bytes,
    long receivedBytes,
    int blocks,
    double meanRate,
    double idleSeconds,
    int failures,
    String dropped) {}
