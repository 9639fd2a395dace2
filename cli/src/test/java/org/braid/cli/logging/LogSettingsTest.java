package org.braid.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogSettingsTest {

  @Test
  void parse_unset_isWarnWithTheWireLogOff() {
    LogSettings s = LogSettings.parse(null, null);
    assertEquals(Level.WARN, s.root());
    assertEquals(Map.of(), s.levels());
    assertEquals(Level.OFF, s.wire());
    assertEquals(List.of(), s.problems());
  }

  @Test
  void parse_debug_leavesTheWireLogOff() {
    LogSettings s = LogSettings.parse("debug", null);
    assertEquals(Level.DEBUG, s.root());
    assertEquals(Level.OFF, s.wire());
  }

  @Test
  void parse_wireSwitch_turnsTheWireLogOnAtDebug_onlyForYesValues() {
    for (String on : List.of("1", "true", "YES", " on ")) {
      assertEquals(Level.DEBUG, LogSettings.parse("info", on).wire(), on);
    }
    for (String off : List.of("0", "", "false", "no", "off", "2")) {
      assertEquals(Level.OFF, LogSettings.parse("debug", off).wire(), off);
    }
  }

  @Test
  void parse_namedLoggers_inOrder_andTheWireLoggerByName() {
    LogSettings s =
        LogSettings.parse(
            "INFO, org.braid.coalloc.Engine=debug,org.apache.hc.client5.http.wire=trace", null);
    assertEquals(Level.INFO, s.root());
    assertEquals(
        List.of("org.braid.coalloc.Engine", LogSettings.WIRE_LOGGER),
        List.copyOf(s.levels().keySet()));
    assertEquals(Level.TRACE, s.wire());
  }

  @Test
  void parse_badItems_areNamedAndIgnored() {
    LogSettings s = LogSettings.parse("verbose,=debug,org.x=loud,error", null);
    assertEquals(Level.ERROR, s.root());
    assertEquals(Map.of(), s.levels());
    assertEquals(3, s.problems().size(), s.problems().toString());
    assertTrue(s.problems().get(0).startsWith("BRAID_LOG: 'verbose' is not LEVEL or LOGGER=LEVEL"));
    assertTrue(s.problems().get(2).contains("'org.x=loud'"), s.problems().get(2));
  }
}
