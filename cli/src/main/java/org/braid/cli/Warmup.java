package org.braid.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.braid.coalloc.Download;
import org.slf4j.LoggerFactory;

/**
 * The set-up of {@code braid get} that does not depend on its arguments, done on a daemon thread
 * while picocli builds the command's model and parses them (about 0.15 s of a cold JVM, on one
 * core): the logging configuration first, then the download's classes ({@link Download#prepare}).
 * On a machine with a second core the first requests then leave some tens of milliseconds sooner;
 * on one core the work is the same, only in another order. The command waits for the logging part
 * ({@link #awaitLogging}) before it sets its log levels, so that it never gets one of the stand-in
 * loggers slf4j hands out while another thread configures it.
 */
final class Warmup {
  private static volatile CountDownLatch logging;

  private Warmup() {}

  /** Starts the thread (for the process's {@code main}); returns it. */
  static Thread start() {
    CountDownLatch ready = new CountDownLatch(1);
    logging = ready;
    Thread t =
        new Thread(
            () -> {
              try {
                LoggerFactory.getILoggerFactory();
              } finally {
                ready.countDown();
              }
              Download.prepare();
            },
            "braid-warmup");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Waits until the logging configuration is done, if {@link #start} ran (at most 10 s: a warm-up
   * that hangs only costs the wait, the command then configures logging itself).
   */
  static void awaitLogging() {
    CountDownLatch ready = logging;
    if (ready == null) {
      return;
    }
    try {
      ready.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
