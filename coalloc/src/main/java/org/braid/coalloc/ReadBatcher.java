package org.braid.coalloc;

import java.util.concurrent.TimeUnit;

/**
 * Spaces one connection's reads so that each brings about {@link #TARGET} bytes, not the one or two
 * packets that arrived since the last. Over a shaped WAN link the packets come one by one, and a
 * reader that is always waiting woke up for each: on the testbed's 80/40/20/10 Mbit/s mirrors at
 * 20-120 ms a 200 MB download took about 62,000 read and 30,000 write system calls, each read with
 * its wake-up and the scheduler's bookkeeping, and cost Braid 4.3-4.8 CPU s against aria2c's
 * 1.0-1.4 (issue 17); spaced, 9,000 and 5,600, and 3.4-3.7 CPU s.
 *
 * <p>After a read that emptied the socket (it returned less than asked for) the reader waits as
 * long as the connection takes to bring {@link #TARGET} more bytes at its recent rate, at most
 * {@link #MAX_PAUSE_NANOS}; the bytes wait in the kernel's receive buffer meanwhile, which TCP
 * keeps open for far more. A read that filled the buffer, a connection fast enough that the wait
 * would be under {@link #MIN_PAUSE_NANOS} (memory speed), and the first read of a thread are never
 * held back. Not thread-safe: one per fetch thread.
 */
final class ReadBatcher {
  /** Bytes a read should bring: half the fetch buffer, a twentieth of a 10 Mbit/s second. */
  static final int TARGET = 32 * 1024;

  /** Shorter waits are not worth a sleep: the reader just reads again. */
  static final long MIN_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

  /** Longest wait: a slow connection's reads bring less than the target instead. */
  static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /** Weight of the newest sample in the smoothed rate. */
  private static final double ALPHA = 0.25;

  /**
   * When the previous read of the current request returned having emptied the socket (what comes
   * after it came since); -1 before the request's first read and after a read that filled the
   * buffer (more may have been waiting).
   */
  private long last = -1;

  /** Smoothed arrival rate in bytes per nanosecond; -1 until measured. */
  private double rate = -1;

  /** A new request starts: the gap before its first read is no sample of the arrival rate. */
  void start() {
    last = -1;
  }

  /**
   * Counts a read that returned {@code n} of the {@code asked} bytes at {@code now} and returns how
   * many nanoseconds to wait before the next read (0: at once), {@code left} bytes of the request
   * still to come.
   */
  long after(int n, int asked, long left, long now) {
    long prev = last;
    last = n < asked ? now : -1;
    if (prev >= 0 && now > prev && n > 0) {
      double sample = (double) n / (now - prev);
      rate = rate < 0 ? sample : rate + ALPHA * (sample - rate);
    }
    if (n >= asked || left <= 0 || rate <= 0) {
      return 0;
    }
    long pause = (long) (Math.min(TARGET, left) / rate);
    return pause < MIN_PAUSE_NANOS ? 0 : Math.min(pause, MAX_PAUSE_NANOS);
  }

  /** The smoothed arrival rate in bytes per second; 0 until measured. */
  double bytesPerSecond() {
    return rate <= 0 ? 0 : rate * 1e9;
  }

  /** As {@link #after}, then waits that long. */
  void pause(int n, int asked, long left) throws InterruptedException {
    long wait = after(n, asked, left, System.nanoTime());
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }
}
