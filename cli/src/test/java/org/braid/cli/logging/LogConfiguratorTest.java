package org.braid.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TimeZone;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogConfiguratorTest {

  static final Pattern LINE =
      Pattern.compile(
          "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) WARN "
              + " org\\.braid\\.x\\.Thing - disk full: /data\\R");

  /** The shipped daemon configuration (the tarball's etc/, the package's /etc/braid/). */
  static final Path SHIPPED = Path.of("src/dist/etc/logback.xml");

  @TempDir Path dir;

  /** Configures a fresh context, logs through it with System.err captured, returns stderr. */
  private static String logWith(LogSettings s, Path file, ByteArrayOutputStream problems)
      throws IOException {
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as logback's service provider does
    try (PrintStream err = new PrintStream(captured, true, StandardCharsets.UTF_8);
        PrintStream p = new PrintStream(problems, true, StandardCharsets.UTF_8)) {
      System.setErr(err);
      LogConfigurator.configure(context, s, file, p);
      context.getLogger("org.braid.x.Thing").warn("disk full: {}", "/data");
      context.getLogger("org.braid.x.Thing").info("not at warn");
      context.getLogger(LogSettings.WIRE_LOGGER).debug("http-outgoing-0 >> \"GET / HTTP/1.1\"");
    } finally {
      System.setErr(saved);
      context.stop();
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void builtIn_writesClockTimeLevelLoggerMessageToStderr() throws IOException {
    ByteArrayOutputStream problems = new ByteArrayOutputStream();
    String out = logWith(LogSettings.parse(null, null), null, problems);
    assertTrue(LINE.matcher(out).matches(), out);
    assertEquals("", problems.toString(StandardCharsets.UTF_8));
  }

  @Test
  void builtIn_debugLeavesTheWireLogOff_theSwitchTurnsItOn() throws IOException {
    String debug = logWith(LogSettings.parse("debug", null), null, new ByteArrayOutputStream());
    assertTrue(debug.contains("INFO  org.braid.x.Thing - not at warn"), debug);
    assertFalse(debug.contains("http-outgoing"), debug);
    String wire = logWith(LogSettings.parse("warn", "1"), null, new ByteArrayOutputStream());
    assertTrue(wire.contains("DEBUG org.apache.hc.client5.http.wire - http-outgoing-0"), wire);
  }

  @Test
  void shippedFile_writesTheSameLines_andHonoursTheLevelsAndTheWireSwitch() throws IOException {
    ByteArrayOutputStream problems = new ByteArrayOutputStream();
    String out = logWith(LogSettings.parse(null, null), SHIPPED, problems);
    assertTrue(LINE.matcher(out).matches(), out);
    assertEquals("", problems.toString(StandardCharsets.UTF_8));
    String debug = logWith(LogSettings.parse("debug", null), SHIPPED, problems);
    assertTrue(debug.contains("INFO  org.braid.x.Thing - not at warn"), debug);
    assertFalse(debug.contains("http-outgoing"), debug);
    String wire = logWith(LogSettings.parse("warn", "yes"), SHIPPED, problems);
    assertTrue(wire.contains("DEBUG org.apache.hc.client5.http.wire - http-outgoing-0"), wire);
    String named = logWith(LogSettings.parse("error,org.braid.x=info", null), SHIPPED, problems);
    assertTrue(named.contains("INFO  org.braid.x.Thing - not at warn"), named);
  }

  @Test
  void missingOrBrokenFile_isReportedInOneLine_andTheBuiltInConfigurationLogs() throws IOException {
    Path broken = Files.writeString(dir.resolve("logback.xml"), "<configuration><appender");
    for (Path file : new Path[] {dir.resolve("absent.xml"), broken}) {
      ByteArrayOutputStream problems = new ByteArrayOutputStream();
      String out = logWith(LogSettings.parse(null, null), file, problems);
      assertTrue(LINE.matcher(out).matches(), out);
      String p = problems.toString(StandardCharsets.UTF_8);
      assertEquals(1, p.lines().count(), p);
      assertTrue(
          p.startsWith("braid: logging configuration " + file + ": ")
              && p.strip().endsWith("; using the built-in configuration"),
          p);
    }
  }

  @Test
  void badBraidLog_isReportedInOneLine_andIgnored() throws IOException {
    ByteArrayOutputStream problems = new ByteArrayOutputStream();
    String out = logWith(LogSettings.parse("loud", null), null, problems);
    assertTrue(LINE.matcher(out).matches(), out);
    assertTrue(
        problems.toString(StandardCharsets.UTF_8).startsWith("braid: BRAID_LOG: 'loud' is not"));
  }

  @Test
  void layout_matchesLogbacksOwnPattern_forEveryZoneAndAThrowable() {
    LoggerContext context = new LoggerContext();
    Logger logger = context.getLogger("org.braid.x.Thing");
    LoggingEvent e =
        new LoggingEvent(
            "fqcn",
            logger,
            Level.ERROR,
            "failed {}",
            new IllegalStateException("boom"),
            new Object[] {"7"});
    TimeZone saved = TimeZone.getDefault();
    try {
      for (String zone : new String[] {"UTC", "Europe/Paris", "America/St_Johns", "Asia/Kolkata"}) {
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        for (long t : new long[] {0L, 1_764_000_000_123L, 1_711_846_799_999L, 1_730_613_600_000L}) {
          e.setTimeStamp(t);
          PatternLayoutEncoder pattern = new PatternLayoutEncoder();
          pattern.setContext(context);
          pattern.setPattern(LogConfigurator.PATTERN);
          pattern.start();
          LogLineLayout layout = new LogLineLayout();
          layout.setContext(context);
          layout.start();
          assertEquals(
              new String(pattern.encode(e), StandardCharsets.UTF_8),
              layout.doLayout(e),
              zone + " " + t);
        }
      }
    } finally {
      TimeZone.setDefault(saved);
    }
  }
}
