package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The paper's schemes (003, section 4.3) do exactly what the paper says, in simulated time. */
class SchemesTest {
  static Simulator.Mirror m(double rate, double predicted) {
    return new Simulator.Mirror(t -> rate, 0.001, predicted);
  }

  static List<BlockEvent> ok(Simulator.Result r, int replica) {
    return r.events.stream().filter(e -> e.replica() == replica && e.written() > 0).toList();
  }

  @Test
  void single_fetchesEverythingFromHighestPrediction() {
    Simulator.Result r =
        Simulator.run(
            3_000_000,
            List.of(m(4e6, 1e6), m(4e6, 3e6), m(4e6, 2e6)),
            1,
            Scheme.singleBest(),
            true,
            60);
    assertEquals(1, ok(r, 1).size());
    assertEquals(3_000_000, ok(r, 1).get(0).written());
    assertEquals(0, ok(r, 0).size() + ok(r, 2).size());
  }

  @Test
  void bruteForce_givesEachFlowSOverN() {
    Simulator.Result r =
        Simulator.run(
            3_000_000, List.of(m(8e6, 0), m(2e6, 0), m(1e6, 0)), 1, Scheme.bruteForce(), true, 60);
    for (int i = 0; i < 3; i++) {
      assertEquals(1, ok(r, i).size());
      assertEquals(1_000_000, ok(r, i).get(0).written());
    }
    // the slowest flow decides the time: 1 MB at 1 MB/s
    assertTrue(r.seconds >= 1.0, "seconds " + r.seconds);
  }

  @Test
  void historyBased_sharesInProportionToPredictions() {
    Simulator.Result r =
        Simulator.run(
            3_000_000,
            List.of(m(1e6, 3e6), m(1e6, 2e6), m(1e6, 1e6)),
            1,
            Scheme.historyBased(),
            true,
            60);
    assertEquals(1_500_000, ok(r, 0).get(0).written());
    assertEquals(1_000_000, ok(r, 1).get(0).written());
    assertEquals(500_000, ok(r, 2).get(0).written());
  }

  @Test
  void conservative_kEqualBlocksNextToWhoeverDelivers() {
    Simulator.Result r =
        Simulator.run(
            3_000_000, List.of(m(3e6, 0), m(1e6, 0)), 1, Scheme.conservative(6), true, 60);
    assertEquals(6, r.events.size());
    for (BlockEvent e : r.events) {
      assertEquals(500_000, e.written());
    }
    assertTrue(ok(r, 0).size() > ok(r, 1).size());
  }

  @Test
  void aggressive_doublesForFasterThanMaxAndStopsFarBelow() {
    Simulator.Result r =
        Simulator.run(
            10_000_000,
            List.of(m(8e6, 0), m(1e6, 0), m(4e6, 0)),
            1,
            Scheme.aggressive(20),
            true,
            60);
    long unit = 500_000;
    for (BlockEvent e : r.events) {
      assertEquals(
          0,
          e.written() % unit == 0 || e.endOffset() == 10_000_000 ? 0 : 1,
          "block of " + e.written() + " bytes is not a multiple of the unit");
    }
    // the 1 MB/s flow is below a quarter of the maximum after its first block: stopped
    assertEquals(1, ok(r, 1).size());
    // the fastest flow's blocks grow
    List<BlockEvent> fast = ok(r, 0);
    assertTrue(fast.get(fast.size() - 1).written() > unit || fast.size() > 1);
    assertTrue(fast.stream().anyMatch(e -> e.written() >= 2 * unit), fast.toString());
  }
}
