package org.braid.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.Status;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Configures logback for the {@code braid} command (found by logback through {@code
 * META-INF/services}): one line per event on standard error, {@value #PATTERN}.
 *
 * <p>Levels come from {@link LogSettings} ({@code BRAID_LOG}, {@code BRAID_LOG_WIRE}). With {@code
 * BRAID_LOG_CONFIG=FILE} the logback file FILE configures logging instead; it may use {@code
 * ${BRAID_LOG_LEVEL}} and {@code ${BRAID_LOG_WIRE_LEVEL}} (the levels those variables ask for), and
 * the loggers {@code BRAID_LOG} names are set on top of it. A file named by the system property
 * {@code logback.configurationFile} is left to logback itself. A file that is missing or broken is
 * reported in one line and the built-in configuration is used.
 *
 * <p>The built-in configuration is set in code rather than by a logback.xml in the jar: parsing XML
 * at start would cost every short command (a {@code braid get} of a small file) a tenth of a second
 * or more.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {

  /**
   * The layout of a log line: clock time (ISO 8601 with milliseconds and offset), level, logger,
   * message; a stack trace follows when there is one.
   */
  public static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger - %msg%n";

  /** The context property holding the root level that BRAID_LOG asks for. */
  public static final String LEVEL_PROPERTY = "BRAID_LOG_LEVEL";

  /** The context property holding the wire logger's level. */
  public static final String WIRE_LEVEL_PROPERTY = "BRAID_LOG_WIRE_LEVEL";

  /** For logback's service loader. */
  public LogConfigurator() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      putProperties(context, LogSettings.fromEnvironment());
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    String file = System.getenv("BRAID_LOG_CONFIG");
    configure(
        context,
        LogSettings.fromEnvironment(),
        file == null || file.isBlank() ? null : Path.of(file),
        System.err);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * Configures {@code context} from {@code settings}, or from the logback file {@code file} when it
   * is not null; problems are reported on {@code err}, one line each.
   */
  static void configure(LoggerContext context, LogSettings settings, Path file, PrintStream err) {
    for (String p : settings.problems()) {
      err.println("braid: " + p);
    }
    putProperties(context, settings);
    boolean loaded = false;
    if (file != null) {
      String problem = loadFile(context, file, err);
      // the lines above said what went wrong; logback would otherwise print its whole status
      context.getStatusManager().clear();
      if (problem == null) {
        setLevels(context, settings.levels());
        loaded = true;
      } else {
        err.println(
            "braid: logging configuration "
                + file
                + ": "
                + problem
                + "; using the built-in configuration");
        context.reset();
        putProperties(context, settings);
      }
    }
    if (!loaded) {
      builtIn(context, settings);
    }
    context.getStatusManager().add(new StatusLines(err));
  }

  private static void putProperties(LoggerContext context, LogSettings settings) {
    context.putProperty(LEVEL_PROPERTY, settings.root().levelStr);
    context.putProperty(WIRE_LEVEL_PROPERTY, settings.wire().levelStr);
  }

  /** Loads a logback file, printing its warnings; returns null, or the first error. */
  private static String loadFile(LoggerContext context, Path file, PrintStream err) {
    if (!Files.isRegularFile(file)) {
      return "no such file";
    }
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(context);
    try {
      joran.doConfigure(file.toFile());
    } catch (JoranException e) {
      return e.getMessage();
    }
    for (Status s : context.getStatusManager().getCopyOfStatusList()) {
      if (s.getLevel() >= Status.ERROR) {
        return s.getMessage();
      }
    }
    for (Status s : context.getStatusManager().getCopyOfStatusList()) {
      if (s.getLevel() == Status.WARN) {
        err.println("braid: logging configuration " + file + ": " + s.getMessage());
      }
    }
    return null;
  }

  private static void builtIn(LoggerContext context, LogSettings settings) {
    LogLineLayout layout = new LogLineLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("STDERR");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(settings.root());
    root.addAppender(appender);
    context.getLogger(LogSettings.WIRE_LOGGER).setLevel(settings.wire());
    setLevels(context, settings.levels());
  }

  private static void setLevels(LoggerContext context, Map<String, Level> levels) {
    for (Map.Entry<String, Level> e : levels.entrySet()) {
      context.getLogger(e.getKey()).setLevel(e.getValue());
    }
  }
}
