package org.braid.broker.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MinMinTest {

  @Test
  void schedule_shortestCompletionFirst_andServersBusyAfterwards() {
    // Both files on server s (10 B/s); the small one completes first (10 s), then the big one
    // (from 10 s: 400 bytes at 10 B/s -> 50 s).
    List<MinMin.Scheduled> s =
        MinMin.schedule(
            List.of(
                new MinMin.Job("big", 400, Map.of("s", 10.0)),
                new MinMin.Job("small", 100, Map.of("s", 10.0))));
    assertEquals(List.of("small", "big"), s.stream().map(MinMin.Scheduled::id).toList());
    assertEquals(10, s.get(0).completion(), 1e-9);
    assertEquals(50, s.get(1).completion(), 1e-9);
    assertEquals(10, s.get(1).starts().get("s"), 1e-9);
  }

  @Test
  void schedule_coallocatesWithReadyTimes_waterFilling() {
    // Job x takes a (100 B/s) alone: 1000 B -> 10 s. Job y may use a and b (50 B/s): b is free at
    // 0, a at 10 -> y completes at T with 50 T + 100 (T - 10) = 2000 -> T = 20.
    List<MinMin.Scheduled> s =
        MinMin.schedule(
            List.of(
                new MinMin.Job("y", 2000, Map.of("a", 100.0, "b", 50.0)),
                new MinMin.Job("x", 1000, Map.of("a", 100.0))));
    assertEquals("x", s.get(0).id());
    assertEquals(10, s.get(0).completion(), 1e-9);
    MinMin.Scheduled y = s.get(1);
    assertEquals(20, y.completion(), 1e-9);
    assertEquals(1000L, y.shares().get("b"));
    assertEquals(1000L, y.shares().get("a"));
    assertEquals(2000L, y.shares().values().stream().mapToLong(Long::longValue).sum());
  }

  @Test
  void plan_slowServerNotWorthWaitingFor_isLeftOut() {
    // a is free now at 100 B/s; b is busy for 100 s. 1000 B finish on a alone at 10 s.
    MinMin.Scheduled p =
        MinMin.plan(new MinMin.Job("j", 1000, Map.of("a", 100.0, "b", 100.0)), Map.of("b", 100.0));
    assertEquals(10, p.completion(), 1e-9);
    assertEquals(Map.of("a", 1000L), p.shares());
  }

  @Test
  void job_badArguments_rejected() {
    assertThrows(IllegalArgumentException.class, () -> new MinMin.Job("j", 0, Map.of("a", 1.0)));
    assertThrows(
        IllegalArgumentException.class, () -> new MinMin.Job("j", 1, Map.of("a", Double.NaN)));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            MinMin.schedule(
                List.of(
                    new MinMin.Job("j", 1, Map.of("a", 1.0)),
                    new MinMin.Job("j", 2, Map.of("a", 1.0)))));
  }
}
