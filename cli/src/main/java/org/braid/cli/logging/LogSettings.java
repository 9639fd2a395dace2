package org.braid.cli.logging;

import ch.qos.logback.classic.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code BRAID_LOG} and {@code BRAID_LOG_WIRE} ask for.
 *
 * <p>{@code BRAID_LOG} is a comma-separated list: a bare level sets every logger ({@code debug}),
 * {@code NAME=LEVEL} one logger and those below it ({@code warn,org.braid.coalloc.Engine=debug}).
 * Levels are trace, debug, info, warn, error and off, in any case. Default: warn.
 *
 * <p>HttpClient's wire log ({@value #WIRE_LOGGER}: every byte sent and received, gigabytes for one
 * large download) stays off at every level unless {@code BRAID_LOG_WIRE} is 1, true, yes or on, or
 * {@code BRAID_LOG} names that logger itself.
 *
 * @param root the level of every logger not named
 * @param levels levels of the loggers {@code BRAID_LOG} names, in the order given
 * @param wire the level of the wire logger: the one {@code BRAID_LOG} names, else debug with {@code
 *     BRAID_LOG_WIRE} on, else off
 * @param problems one line per item that was not understood (and was ignored)
 */
record LogSettings(Level root, Map<String, Level> levels, Level wire, List<String> problems) {

  /** HttpClient 5's wire logger: every byte on every connection. */
  static final String WIRE_LOGGER = "org.apache.hc.client5.http.wire";

  /** The level when {@code BRAID_LOG} is unset. */
  static final Level DEFAULT_LEVEL = Level.WARN;

  /** Copies the map (keeping its order) and the list. */
  LogSettings {
    levels = Collections.unmodifiableMap(new LinkedHashMap<>(levels));
    problems = List.copyOf(problems);
  }

  /**
   * Parses the two settings.
   *
   * @param log the value of {@code BRAID_LOG}, or null
   * @param wire the value of {@code BRAID_LOG_WIRE}, or null
   */
  static LogSettings parse(String log, String wire) {
    Level root = DEFAULT_LEVEL;
    Map<String, Level> levels = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    if (log != null) {
      for (String item : log.split(",", -1)) {
        String it = item.strip();
        if (it.isEmpty()) {
          continue;
        }
        int eq = it.indexOf('=');
        String name = eq < 0 ? "" : it.substring(0, eq).strip();
        Optional<Level> level = level(eq < 0 ? it : it.substring(eq + 1));
        if (level.isEmpty() || (eq >= 0 && name.isEmpty())) {
          problems.add(
              "BRAID_LOG: '"
                  + it
                  + "' is not LEVEL or LOGGER=LEVEL (levels: trace, debug, info, warn, error,"
                  + " off); ignored");
        } else if (eq < 0) {
          root = level.get();
        } else {
          levels.put(name, level.get());
        }
      }
    }
    Level wireLevel = levels.getOrDefault(WIRE_LOGGER, wireOn(wire) ? Level.DEBUG : Level.OFF);
    return new LogSettings(root, levels, wireLevel, problems);
  }

  /** Reads {@code BRAID_LOG} and {@code BRAID_LOG_WIRE} from the environment. */
  static LogSettings fromEnvironment() {
    return parse(System.getenv("BRAID_LOG"), System.getenv("BRAID_LOG_WIRE"));
  }

  private static boolean wireOn(String wire) {
    if (wire == null) {
      return false;
    }
    return switch (wire.strip().toLowerCase(Locale.ROOT)) {
      case "1", "true", "yes", "on" -> true;
      default -> false;
    };
  }

  private static Optional<Level> level(String s) {
    return switch (s.strip().toLowerCase(Locale.ROOT)) {
      case "trace" -> Optional.of(Level.TRACE);
      case "debug" -> Optional.of(Level.DEBUG);
      case "info" -> Optional.of(Level.INFO);
      case "warn", "warning" -> Optional.of(Level.WARN);
      case "error" -> Optional.of(Level.ERROR);
      case "off" -> Optional.of(Level.OFF);
      default -> Optional.empty();
    };
  }
}
