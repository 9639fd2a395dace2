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
final class PrefixHasher implements AutoCloseable {
  /** Longest sleep while the prefix does not grow. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** Bytes hashed between looks at whether to stop. */
  private static final long STEP = 16L << 20;

  private final PartFile.RunningDigests digests;
  private final LongSupplier stablePrefix;
  private final Thread thread;
  private volatile long target = -1;
  private volatile boolean stopped;
  private volatile Throwable failure;

  /**
   * Starts hashing into {@code digests} the prefix that {@code stablePrefix} reports, on a daemon
   * thread named after the download {@code id}.
   */
  PrefixHasher(String id, PartFile.RunningDigests digests, LongSupplier stablePrefix) {
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
        long hashed = digests.hashed();
        if (upTo > hashed) {
          digests.advance(Math.min(upTo, hashed + STEP));
        } else if (t >= 0) {
          return;
        } else {
          LockSupport.parkNanos(this, POLL_NANOS);
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      failure = e;
    }
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
    target = size;
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
    stopped = true;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
