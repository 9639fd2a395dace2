package org.braid.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Sets the level of braid's own loggers for one command and puts it back afterwards: {@code
 * --verbose} shows INFO lines; without it (and without {@code BRAID_LOG}) per-request warnings are
 * left out, as the command reports each failure once itself, but the credentials' warnings stay (a
 * token found by discovery not sent over plain http, an unusable default proxy): nothing else says
 * why a server then answers 401. Not thread-safe.
 */
final class QuietLogs implements AutoCloseable {
  /** The logger of the credential warnings, shown even when quiet. */
  static final String CREDENTIALS = "org.braid.coalloc.GridAccess";

  private final List<Logger> loggers = new ArrayList<>();
  private final List<Level> before = new ArrayList<>();

  private QuietLogs() {}

  private QuietLogs set(Logger logger, Level level) {
    loggers.add(logger);
    before.add(logger.getLevel());
    logger.setLevel(level);
    return this;
  }

  /** Applies the level for the command; close to restore. */
  static QuietLogs forCommand(boolean verbose) {
    QuietLogs q = new QuietLogs();
    if (!(LoggerFactory.getLogger("org.braid") instanceof Logger lb)
        || !(LoggerFactory.getLogger(CREDENTIALS) instanceof Logger credentials)) {
      return q;
    }
    if (verbose) {
      return q.set(lb, Level.INFO);
    }
    if (System.getenv("BRAID_LOG") != null) {
      return q;
    }
    return q.set(lb, Level.ERROR).set(credentials, Level.WARN);
  }

  @Override
  public void close() {
    for (int i = loggers.size() - 1; i >= 0; i--) {
      loggers.get(i).setLevel(before.get(i));
    }
  }
}
