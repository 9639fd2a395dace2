package org.braid.coalloc;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs an action once a time limit has passed, unless the limit is disarmed first: how a request
 * that a server answers too slowly (a trickled status line or headers, a probe body that never
 * ends) is abandoned whatever the server sends. One daemon timer thread for the whole JVM, started
 * on first use. Thread-safe.
 */
final class Deadlines {
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private Deadlines() {}

  /** An armed time limit; {@link #close} disarms it. */
  interface Armed extends AutoCloseable {
    /** Whether the limit passed and the action ran (or is running). */
    boolean expired();

    /** Disarms the limit; the action does not run if it has not started. */
    @Override
    void close();
  }

  /** Runs {@code action} after {@code limit} unless the returned handle is closed first. */
  static Armed after(Duration limit, Runnable action) {
    boolean[] ran = new boolean[1];
    Future<?> f =
        TIMER.schedule(
            () -> {
              synchronized (ran) {
                ran[0] = true;
              }
              action.run();
            },
            Math.max(1, limit.toNanos()),
            TimeUnit.NANOSECONDS);
    return new Armed() {
      @Override
      public boolean expired() {
        synchronized (ran) {
          return ran[0];
        }
      }

      @Override
      public void close() {
        f.cancel(/* mayInterruptIfRunning= */ false);
      }
    };
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread th = new Thread(r, "braid-deadlines");
              th.setDaemon(true);
              return th;
            });
    t.setRemoveOnCancelPolicy(true);
    return t;
  }
}
