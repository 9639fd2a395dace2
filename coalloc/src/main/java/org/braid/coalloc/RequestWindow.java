package org.braid.coalloc;

/**
 * How far ahead a flow whose replica answers pipelined requests asks for bytes: enough that the
 * next request reaches the replica before the one before it is answered, so that a block boundary
 * costs no round trip and the connection never idles (an idle TCP connection longer than its
 * retransmission timeout starts slow again on most servers, {@code tcp_slow_start_after_idle}), and
 * no further, since bytes asked for can no longer go to another replica.
 */
final class RequestWindow {
  /** Smallest request, bytes. */
  static final long MIN_REQUEST = 1L << 20;

  /** Largest request, bytes. */
  static final long MAX_REQUEST = 64L << 20;

  /** A request carries at least this long of the flow's rate, seconds. */
  static final double REQUEST_SECONDS = 0.05;

  /** Round trips' worth of bytes kept on their way besides one request. */
  static final double ROUND_TRIPS = 2;

  private RequestWindow() {}

  /**
   * The size of the next request of a flow with the given rate (bytes per second, 0 when unknown)
   * and request latency: its bytes of {@link #REQUEST_SECONDS} or of one round trip, whichever is
   * more, within {@link #MIN_REQUEST} and {@link #MAX_REQUEST}.
   */
  static long requestSize(double rate, long latencyNanos) {
    double seconds = Math.max(REQUEST_SECONDS, latencyNanos / 1e9);
    return Math.max(MIN_REQUEST, Math.min(MAX_REQUEST, (long) (rate * seconds)));
  }

  /**
   * The bytes such a flow keeps requested and not received: one request plus {@link #ROUND_TRIPS}
   * round trips' worth (the bandwidth-delay product), so that a new request is sent while more than
   * a round trip of data is still on its way.
   */
  static long window(double rate, long latencyNanos) {
    return requestSize(rate, latencyNanos) + (long) (ROUND_TRIPS * rate * latencyNanos / 1e9);
  }
}
