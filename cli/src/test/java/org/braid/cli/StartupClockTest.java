package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartupClockTest {

  @Test
  void parseEpoch_readsBashEpochRealtimeWithPointOrComma() {
    assertEquals(
        Instant.ofEpochSecond(1700000000L, 123456000),
        StartupClock.parseEpoch("1700000000.123456"));
    assertEquals(
        Instant.ofEpochSecond(1700000000L, 500000000), StartupClock.parseEpoch("1700000000,5"));
    assertEquals(Instant.ofEpochSecond(42), StartupClock.parseEpoch("42"));
  }

  @Test
  void parseEpoch_rejectsAnythingElse() {
    assertNull(StartupClock.parseEpoch(null));
    assertNull(StartupClock.parseEpoch(""));
    assertNull(StartupClock.parseEpoch("-1.5"));
    assertNull(StartupClock.parseEpoch("1.2.3"));
    assertNull(StartupClock.parseEpoch("soon"));
    assertNull(StartupClock.parseEpoch("42."));
    assertNull(StartupClock.parseEpoch(".5"));
    assertNull(StartupClock.parseEpoch("1,5.5"));
    assertNull(StartupClock.parseEpoch("1234567890123"));
    assertNull(StartupClock.parseEpoch("1.1234567890"));
  }

  @Test
  void line_measuresFromTheLauncherOrElseTheJvm() {
    // the launcher started one hour before now: the JVM started about 3,600,000 ms after it
    String t0 = String.valueOf(Instant.now().getEpochSecond() - 3600);
    String line = StartupClock.line(t0);
    assertTrue(line.matches("braid: timing: origin=launcher jvm=3[56][0-9]{5}\\.[0-9]"), line);
    assertEquals("braid: timing: origin=jvm jvm=0.0", StartupClock.line(null));
    assertEquals("braid: timing: origin=jvm jvm=0.0", StartupClock.line("garbage"));
  }

  @Test
  void lookUpJvmStart_recordsTheSameStartForTheLineAtExit() throws InterruptedException {
    StartupClock.lookUpJvmStart(0).join();
    long jvm = ManagementFactory.getRuntimeMXBean().getStartTime();
    assertEquals(Instant.ofEpochMilli(jvm), StartupClock.jvmStart);
    String t0 = String.valueOf(jvm / 1000) + "." + String.format("%03d", jvm % 1000);
    assertEquals("braid: timing: origin=launcher jvm=0.0", StartupClock.line(t0));
    // one decimal, rounded: 12.35 ms and 1,234,567.8 ms after the JVM's start
    Instant start = Instant.ofEpochMilli(jvm);
    String line =
        StartupClock.line(
            null,
            List.of("a", "b", "c"),
            List.of(start.plusNanos(12_350_000), start.plusNanos(1_234_567_800_000L), start));
    assertEquals("braid: timing: origin=jvm jvm=0.0 a=12.4 b=1234567.8 c=0.0", line);
  }
}
