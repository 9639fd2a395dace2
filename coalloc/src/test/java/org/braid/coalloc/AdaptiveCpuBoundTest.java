package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The default scheme keeps only the fastest connections busy once a fast download is CPU-bound. */
class AdaptiveCpuBoundTest {
  private static final long MS = 1_000_000L;

  private final AtomicLong cpu = new AtomicLong();
  private final AtomicLong wall = new AtomicLong(1_000 * MS);

  /** A budget over two cores on the fake clocks. */
  private CpuBudget twoCores() {
    return new CpuBudget(cpu::get, wall::get, 2);
  }

  /** Advances the wall clock by {@code ms} while the process uses {@code share} of all cores. */
  private void run(long ms, double share, int cores) {
    wall.addAndGet(ms * MS);
    cpu.addAndGet((long) (ms * MS * share * cores));
  }

  private static PolicyView view(double... rates) {
    List<Replica> rs = new ArrayList<>();
    for (int i = 0; i < rates.length; i++) {
      rs.add(new Replica(i, URI.create("http://127.0.0.1:" + (8000 + i) + "/f"), rates[i]));
    }
    return new PolicyView(rs, new RangePool(2_000_000_000L, new RangeSet()), new Flows(rs, 1, 0));
  }

  private static List<Boolean> mayUse(Adaptive a, PolicyView v) {
    List<Boolean> out = new ArrayList<>();
    for (Flow f : v.flows()) {
      out.add(a.mayUse(f, v, 0));
    }
    return out;
  }

  @Test
  void busyCpuAtMemorySpeed_onlyTheFastestFlowGoesOn_onTwoCores() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(100e6, 150e6, 80e6, 50e6);
    // no full window measured yet: every flow fetches
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
    run(300, 0.95, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
    assertEquals(List.of(v.flows().get(1)), a.chosen());
    // the choice stays while the download runs, even once the CPU is less busy
    run(300, 0.3, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
  }

  @Test
  void cpuNotBusy_everyFlowGoesOn() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(100e6, 150e6, 80e6, 50e6);
    mayUse(a, v);
    run(300, 0.6, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
    assertTrue(a.chosen().isEmpty());
  }

  @Test
  void busyCpuBelowMemorySpeed_everyFlowGoesOn() {
    // 150 Mbit/s in all: a WAN download on a busy machine is not limited by its own CPU use
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(10e6, 5e6, 2.5e6, 1.25e6);
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
  }

  @Test
  void chosenReplicaDropped_theNextFastestTakesOver() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(100e6, 150e6, 120e6, 80e6);
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
    v.flows().get(1).replica.dropped = true;
    assertEquals(List.of(false, false, true, false), mayUse(a, v));
    assertEquals(List.of(v.flows().get(2)), a.chosen());
  }

  @Test
  void moreCores_keepAllButOneCoreBusyWithConnections() {
    CpuBudget four = new CpuBudget(cpu::get, wall::get, 4);
    assertEquals(3, four.connectionsWhenBusy());
    Adaptive a = new Adaptive(four);
    PolicyView v = view(100e6, 150e6, 80e6, 50e6);
    mayUse(a, v);
    run(300, 0.9, 4);
    assertEquals(List.of(true, true, true, false), mayUse(a, v));
    // as many flows as cores less one: nothing to leave out
    Adaptive b = new Adaptive(new CpuBudget(cpu::get, wall::get, 5));
    mayUse(b, v);
    run(300, 1.0, 5);
    assertEquals(List.of(true, true, true, true), mayUse(b, v));
  }

  @Test
  void budget_isBusyOnlyAfterAFullWindowAtTheBusyShare() {
    CpuBudget b = twoCores();
    assertFalse(b.busy());
    run(100, 1.0, 2);
    // shorter than a window: no verdict yet
    assertFalse(b.busy());
    run(200, 1.0, 2);
    assertTrue(b.busy());
    run(300, CpuBudget.BUSY - 0.05, 2);
    assertFalse(b.busy());
    assertFalse(CpuBudget.NONE.busy());
    assertEquals(1, new CpuBudget(cpu::get, wall::get, 1).connectionsWhenBusy());
  }

  @Test
  void process_measuresThisJvmsCpuTime() {
    CpuBudget p = CpuBudget.process();
    assertEquals(Runtime.getRuntime().availableProcessors(), p.cores());
    long before = p.cpuNanos();
    assertTrue(before > 0, "CPU time " + before);
    long end = System.nanoTime() + 50 * MS;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
    assertTrue(p.cpuNanos() > before);
    // no verdict before a full window
    assertFalse(p.busy());
  }
}
