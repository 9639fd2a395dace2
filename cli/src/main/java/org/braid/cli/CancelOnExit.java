package org.braid.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * While open, a JVM shutdown (Ctrl-C, SIGTERM) cancels the running job and waits up to 5 s for it
 * to stop, so that its partial files and control files are left consistent for a resume. Closing it
 * lets the shutdown go on at once and removes the hook.
 */
final class CancelOnExit {
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;

  CancelOnExit(Runnable cancel) {
    hook =
        new Thread(
            () -> {
              cancel.run();
              try {
                finished.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Ends it: a shutdown from now on does not wait for the job. */
  void close() {
    finished.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // shutting down already
    }
  }
}
