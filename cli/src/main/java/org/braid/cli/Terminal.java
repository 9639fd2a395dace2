package org.braid.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What the command line knows about the terminal: whether standard error is one (Linux: where
 * {@code /proc/self/fd/2} points), and its width. Stateless.
 */
final class Terminal {
  /** Width used when it cannot be found. */
  static final int DEFAULT_COLUMNS = 80;

  private Terminal() {}

  /** Whether this process's standard error is a terminal. */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/")
          || target.startsWith("/dev/tty")
          || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /**
   * The terminal's width in columns: {@code $COLUMNS} if set, else what {@code stty size} says of
   * {@code /dev/tty}, else {@link #DEFAULT_COLUMNS}; at least 20.
   */
  static int columns() {
    String env = System.getenv("COLUMNS");
    if (env != null && env.trim().matches("\\d{1,4}")) {
      return Math.max(20, Integer.parseInt(env.trim()));
    }
    try {
      Process p =
          new ProcessBuilder("stty", "size")
              .redirectInput(new File("/dev/tty"))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(1, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return DEFAULT_COLUMNS;
      }
      String[] rc = new String(p.getInputStream().readAllBytes()).trim().split("\\s+");
      if (rc.length == 2 && rc[1].matches("\\d{1,4}") && Integer.parseInt(rc[1]) > 0) {
        return Math.max(20, Integer.parseInt(rc[1]));
      }
    } catch (IOException e) {
      // no terminal to ask
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return DEFAULT_COLUMNS;
  }
}
