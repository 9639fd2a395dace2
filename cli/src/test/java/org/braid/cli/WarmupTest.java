package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class WarmupTest {
  @Test
  void start_configuresLoggingForTheCommand_thenEnds_onADaemonThread() throws Exception {
    Thread t = Warmup.start();
    assertTrue(t.isDaemon(), "must not keep the JVM alive");
    Warmup.awaitLogging();
    // what QuietLogs needs to set the levels: logback's own loggers, not slf4j's stand-ins
    assertInstanceOf(
        ch.qos.logback.classic.Logger.class, LoggerFactory.getLogger("org.braid.coalloc"));
    QuietLogs q = QuietLogs.forCommand(/* verbose= */ false);
    try {
      assertFalse(LoggerFactory.getLogger("org.braid.coalloc.Engine").isWarnEnabled());
    } finally {
      q.close();
    }
    t.join(60_000);
    assertFalse(t.isAlive(), "the warm-up did not end");
  }
}
