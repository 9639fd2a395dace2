package org.braid.coalloc;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * The low-speed limit of one request, as curl's {@code --speed-limit}/{@code --speed-time}: when
 * the request receives on average fewer than {@code limit} bytes per second over {@code time}, it
 * is abandoned as stalled (a failure of its replica, which backs off and is dropped after its
 * tries). Checked as bytes arrive and, for a read that waits long for its next bytes, by {@link
 * #check} from a watchdog. Time spent waiting on the {@link Throttle} does not count. Thread-safe.
 */
final class LowSpeed {
  private final URI uri;
  private final long limit;
  private final long timeNanos;
  private long windowStart;
  private long windowBytes;
  private long pausedNanos;
  private boolean fired;

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
  synchronized void received(long n, long paused, long now)
      throws SourceException.StalledException {
    windowBytes += n;
    pausedNanos += paused;
    if (check(now)) {
      throw exception();
    }
  }

  /**
   * Whether the request has been too slow for the whole time by {@code now}; once true, stays true.
   * A window that ends fast enough starts the next one.
   */
  synchronized boolean check(long now) {
    if (fired) {
      return true;
    }
    if (limit <= 0) {
      return false;
    }
    long elapsed = now - windowStart - pausedNanos;
    if (elapsed < timeNanos) {
      return false;
    }
    if (windowBytes * 1e9 / elapsed < limit) {
      fired = true;
      return true;
    }
    windowStart = now;
    windowBytes = 0;
    pausedNanos = 0;
    return false;
  }

  /** The failure to report once {@link #check} said the request is too slow. */
  synchronized SourceException.StalledException exception() {
    return new SourceException.StalledException(
        uri,
        String.format(
            Locale.ROOT,
            "slower than the low-speed limit of %d bytes/s: %d bytes in %.1f s",
            limit,
            windowBytes,
            timeNanos / 1e9),
        null);
  }
}
