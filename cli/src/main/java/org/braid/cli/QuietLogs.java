package org.braid.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the level of braid's own loggers for one command and puts it back afterwards: {@code
 * --verbose} shows INFO lines; without it (and without {@code BRAID_LOG}) per-request warnings are
 * left out, as the command reports each failure once itself. Not thread-safe.
 */
final class QuietLogs implements AutoCloseable {
  private final Logger logger;
  private final Level before;

  private QuietLogs(Logger logger, Level level) {
    this.logger = logger;
    this.before = logger == null ? null : logger.getLevel();
    if (logger != null) {
      logger.setLevel(level);
    }
  }

  /** Applies the level for the command; close to restore. */
  static QuietLogs forCommand(boolean verbose) {
    if (!(LoggerFactory.getLogger("org.braid") instanceof Logger lb)) {
      return new QuietLogs(null, null);
    }
    if (verbose) {
      return new QuietLogs(lb, Level.INFO);
    }
    if (System.getenv("BRAID_LOG") != null) {
      return new QuietLogs(null, null);
    }
    return new QuietLogs(lb, Level.ERROR);
  }

  @Override
  public void close() {
    if (logger != null) {
      logger.setLevel(before);
    }
  }
}
