package org.braid.cli.logging;

import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import java.io.PrintStream;

/**
 * Prints logback's own errors (an appender that cannot write, say) as one line each, {@code braid:
 * logging: MESSAGE}. Registering a listener also keeps logback from printing its status history at
 * start, which would load its date formatter into every run.
 */
final class StatusLines implements StatusListener {

  private final PrintStream err;

  StatusLines(PrintStream err) {
    this.err = err;
  }

  @Override
  public void addStatusEvent(Status status) {
    if (status.getLevel() >= Status.ERROR) {
      Throwable t = status.getThrowable();
      err.println(
          "braid: logging: " + status.getMessage() + (t == null ? "" : ": " + t.getMessage()));
    }
  }

  @Override
  public boolean isResetResistant() {
    return true;
  }
}
