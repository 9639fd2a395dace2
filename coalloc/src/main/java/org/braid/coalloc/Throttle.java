package org.braid.coalloc;

import java.util.concurrent.TimeUnit;

/**
 * A limit on the bytes per second all of a download's connections receive together ({@code
 * --limit-rate}): each reader takes its bytes from the throttle, which makes it wait as long as the
 * limit asks. With no limit it never waits. Thread-safe.
 */
final class Throttle {
  private final long bytesPerSecond;
  private long nextNanos = Long.MIN_VALUE;

  /** A throttle for the given limit; 0 for none. */
  Throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("rate limit must be 0 (none) or more: " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * How many bytes a reader should ask for at once: {@code max} without a limit, else about a tenth
   * of a second's worth (at least 1 KiB), so that the limit holds smoothly.
   */
  int chunk(int max) {
    if (bytesPerSecond == 0) {
      return max;
    }
    return (int) Math.max(1, Math.min(max, Math.max(1024, bytesPerSecond / 10)));
  }

  /**
   * Takes {@code n} bytes just received, waiting until the limit allows them; returns the
   * nanoseconds waited.
   */
  long take(int n) throws InterruptedException {
    if (bytesPerSecond == 0 || n <= 0) {
      return 0;
    }
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      long at = nextNanos == Long.MIN_VALUE || nextNanos - now < 0 ? now : nextNanos;
      nextNanos = at + n * TimeUnit.SECONDS.toNanos(1) / bytesPerSecond;
      wait = at - now;
    }
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
    return Math.max(0, wait);
  }
}
