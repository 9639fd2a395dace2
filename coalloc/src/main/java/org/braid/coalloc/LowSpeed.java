package org.braid.coalloc;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * The low-speed limit of one request, as curl's {@code --speed-limit}/{@code --speed-time}: when
 * the request receives on average fewer than {@code limit} bytes per second over {@code time}, it
 * is abandoned as stalled (a failure of its replica, which backs off and is dropped after its
 * tries). Time spent waiting on the {@link Throttle} does not count. Not thread-safe: one per
 * request.
 */
final class LowSpeed {
  private final URI uri;
  private final long limit;
  private final long timeNanos;
  private long windowStart;
  private long windowBytes;
  private long pausedNanos;

  /** Watches a request of the replica starting now; a limit of 0 never fires. */
  LowSpeed(URI uri, long limit, Duration time, long now) {
    this.uri = uri;
    this.limit = limit;
    this.timeNanos = time.toNanos();
    this.windowStart = now;
  }

  /**
   * Counts {@code n} bytes received by {@code now}, of which {@code paused} nanoseconds were spent
   * waiting on the throttle.
   *
   * @throws SourceException.StalledException if the request has been too slow for the whole time
   */
  void received(long n, long paused, long now) throws SourceException.StalledException {
    if (limit <= 0) {
      return;
    }
    windowBytes += n;
    pausedNanos += paused;
    long elapsed = now - windowStart - pausedNanos;
    if (elapsed < timeNanos) {
      return;
    }
    double rate = windowBytes * 1e9 / elapsed;
    if (rate < limit) {
      throw new SourceException.StalledException(
          uri,
          String.format(
              Locale.ROOT,
              "slower than the low-speed limit of %d bytes/s: %d bytes in %.1f s",
              limit,
              windowBytes,
              elapsed / 1e9),
          null);
    }
    windowStart = now;
    windowBytes = 0;
    pausedNanos = 0;
  }
}
