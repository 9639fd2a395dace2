package org.braid.coalloc;

/**
 * Nanoseconds from an arbitrary origin, for measuring intervals (as Caffeine's {@code Ticker}): the
 * one time source of a download's scheduling, timeouts of its own, events and report, so that a
 * test or a simulation can run it on a clock of its own. Wall-clock timestamps (the journal's, the
 * report's start) come from the download's {@link java.time.Clock} instead.
 */
@FunctionalInterface
interface Ticker {
  /** The current time in nanoseconds; only differences between two readings mean anything. */
  long read();

  /** {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
