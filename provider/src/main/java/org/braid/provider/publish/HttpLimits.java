package org.braid.provider.publish;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on requests to the provider's HTTP server. Requests beyond them get 414 (URI) or 431
 * (header fields); connections beyond the limit make room by closing the connection that has waited
 * longest for a request head, else they are answered 503; memory and threads stay bounded, and a
 * client that sends its request slowly (a slowloris) holds a connection for at most the head
 * timeout.
 *
 * @param maxUriLength longest request target accepted (default 2048 characters)
 * @param maxHeaderBytes most bytes of header fields accepted (default 8192)
 * @param maxHeaderCount most header fields accepted (default 50)
 * @param maxConnections most connections open at once (default 256)
 * @param headTimeout the most a connection may wait for a complete request head, from when it
 *     starts waiting (accepted, or its previous answer sent: an idle keep-alive connection is
 *     closed after this too); default 10 s
 * @param requestTimeout the most a request may take from its complete head to its answer sent (the
 *     body read, the answer written to a slow reader); default 30 s
 */
public record HttpLimits(
    int maxUriLength,
    int maxHeaderBytes,
    int maxHeaderCount,
    int maxConnections,
    Duration headTimeout,
    Duration requestTimeout) {

  /** The defaults: 2048, 8192, 50, 256, 10 s, 30 s. */
  public static final HttpLimits DEFAULT =
      new HttpLimits(2048, 8192, 50, 256, Duration.ofSeconds(10), Duration.ofSeconds(30));

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException if a limit is below 1 or a timeout not positive
   * @throws NullPointerException if a timeout is null
   */
  public HttpLimits {
    if (maxUriLength < 1 || maxHeaderBytes < 1 || maxHeaderCount < 1 || maxConnections < 1) {
      throw new IllegalArgumentException(
          "HTTP limits must be positive: "
              + maxUriLength
              + ", "
              + maxHeaderBytes
              + ", "
              + maxHeaderCount
              + ", "
              + maxConnections);
    }
    Objects.requireNonNull(headTimeout, "headTimeout");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (headTimeout.isNegative() || headTimeout.isZero()) {
      throw new IllegalArgumentException("HTTP head timeout must be positive: " + headTimeout);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException(
          "HTTP request timeout must be positive: " + requestTimeout);
    }
  }

  /** Size and connection limits with the default timeouts. */
  public HttpLimits(int maxUriLength, int maxHeaderBytes, int maxHeaderCount, int maxConnections) {
    this(
        maxUriLength,
        maxHeaderBytes,
        maxHeaderCount,
        maxConnections,
        DEFAULT_HEAD_TIMEOUT,
        DEFAULT_REQUEST_TIMEOUT);
  }

  private static final Duration DEFAULT_HEAD_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
}
