package org.braid.provider.publish;

/**
 * Bounds on requests to the provider's HTTP server. Requests beyond them get 414 (URI) or 431
 * (header fields), connections beyond the limit 503; memory and threads stay bounded.
 *
 * @param maxUriLength longest request target accepted (default 2048 characters)
 * @param maxHeaderBytes most bytes of header fields accepted (default 8192)
 * @param maxHeaderCount most header fields accepted (default 50)
 * @param maxConnections most connections open at once (default 256); one more is answered 503 and
 *     closed
 */
public record HttpLimits(
    int maxUriLength, int maxHeaderBytes, int maxHeaderCount, int maxConnections) {

  /** The defaults: 2048, 8192, 50, 256. */
  public static final HttpLimits DEFAULT = new HttpLimits(2048, 8192, 50, 256);

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException if a limit is below 1
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
  }
}
