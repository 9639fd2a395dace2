package org.braid.coalloc;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Feeds the whole-file digests on a thread of its own while the download runs: whenever the stable
 * prefix (the leading bytes that can no longer change) grows, it reads the new bytes back from the
 * part file and hashes them. A whole-file digest is sequential, so this is the most that can run
 * beside the transfer; doing it on its own thread means no fetcher and no supervisor pass ever
 * waits for the digest, and the digest never waits for a pass (issue 17: at 1 GB/s a bounded step
 * per supervisor pass left most of a 2 GB file to hash after the last byte). Thread-safe: one
 * thread hashes; {@link #finish} and {@link #close} may be called from any other.
 */
final class PrefixHasher implements AutoCloseable, Fetcher.Pacer {
  /** Longest sleep while the prefix does not grow. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** Bytes hashed between looks at whether to stop. */
  static final long STEP = 8L << 20;

  /**
   * Fewest new bytes worth a pass before {@link #finish}: over a WAN link the prefix grows by a
   * packet or a read between looks, and a pass per look mapped, hashed and unmapped a few kilobytes
   * up to 500 times a second (on the testbed's four mirrors at 20-120 ms the hash thread used 0.80
   * CPU s for 200 MB, 0.55-0.60 s with this). Whatever is below it when the last byte arrives is
   * hashed at once then (about a millisecond).
   */
  static final long LEAST = 1L << 20;

  /**
   * How far the hash may lag behind the stable prefix before the fetchers wait ({@link #pace}). At
   * memory speed the fetch threads and the hash share the CPU, and with each thread given an equal
   * share the hash fell behind: 1.4 GB of a 2 GB file were left to hash on one core after the last
   * byte, the other core idle (issue 17). The hash is the one task that cannot be spread over
   * threads, so the fetchers give it the CPU instead of running ahead.
   */
  static final long AHEAD = 64L << 20;

  private final long step;
  private final long ahead;
  private final long least;
  private final PartFile.RunningDigests digests;
  private final LongSupplier stablePrefix;
  private final Thread thread;
  private volatile long target = -1;
  private volatile boolean stopped;
  private volatile Throwable failure;

  /** The stable prefix at the hasher's last look, and the bytes hashed (for {@link #pace}). */
  private volatile long seen;

  private volatile long done;

  private final Object paced = new Object();

  /**
   * Starts hashing into {@code digests} the prefix that {@code stablePrefix} reports, on a daemon
   * thread named after the download {@code id}.
   */
  PrefixHasher(String id, PartFile.RunningDigests digests, LongSupplier stablePrefix) {
    this(id, digests, stablePrefix, STEP, AHEAD, LEAST);
  }

  /**
   * As above, hashing {@code step} bytes at a time, at least {@code least} (until {@link #finish}),
   * and pacing the fetchers at {@code ahead}.
   */
  PrefixHasher(
      String id,
      PartFile.RunningDigests digests,
      LongSupplier stablePrefix,
      long step,
      long ahead,
      long least) {
    this.step = step;
    this.ahead = ahead;
    this.least = least;
    this.digests = digests;
    this.stablePrefix = stablePrefix;
    this.thread = new Thread(this::work, "braid-" + id + "-hash");
    thread.setDaemon(true);
    thread.start();
  }

  private void work() {
    try {
      while (!stopped) {
        long t = target;
        long upTo = t >= 0 ? t : stablePrefix.getAsLong();
        seen = upTo;
        long hashed = digests.hashed();
        if (upTo - hashed >= least || t >= 0 && upTo > hashed) {
          digests.advance(Math.min(upTo, hashed + step));
          done = digests.hashed();
          synchronized (paced) {
            paced.notifyAll();
          }
        } else if (t >= 0) {
          return;
        } else {
          LockSupport.parkNanos(this, POLL_NANOS);
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      failure = e;
    } finally {
      synchronized (paced) {
        stopped = true;
        paced.notifyAll();
      }
    }
  }

  /**
   * Waits while the hash lags more than {@link #AHEAD} bytes (as constructed) behind the stable
   * prefix, so that a fetcher does not take the CPU the hash needs; never once the hasher stopped
   * or was told to finish. Returns the nanoseconds waited.
   */
  @Override
  public long pace() throws InterruptedException {
    if (seen - done <= ahead) {
      return 0;
    }
    long t0 = System.nanoTime();
    synchronized (paced) {
      while (seen - done > ahead && !stopped && target < 0) {
        paced.wait(10);
      }
    }
    return System.nanoTime() - t0;
  }

  /** Bytes hashed so far (from the start of the file). */
  long hashed() {
    return digests.hashed();
  }

  /**
   * Hashes the rest of the file up to {@code size}, whose bytes must all be final now, waits for it
   * and returns the hex digests by algorithm.
   *
   * @throws IOException if reading the part file failed
   */
  Map<String, String> finish(long size) throws IOException {
    synchronized (paced) {
      target = size;
      paced.notifyAll();
    }
    LockSupport.unpark(thread);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
      throw new IOException("interrupted while hashing the output", e);
    }
    Throwable f = failure;
    if (f instanceof IOException io) {
      throw io;
    }
    if (f instanceof RuntimeException re) {
      throw re;
    }
    if (f instanceof Error err) {
      throw err;
    }
    return digests.finish();
  }

  /** Stops hashing (a download that failed or was cancelled); returns once the thread ended. */
  @Override
  public void close() {
    synchronized (paced) {
      stopped = true;
      paced.notifyAll();
    }
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
