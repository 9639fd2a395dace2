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

  /** The share of the machine's cores busy, as the fake machine reports it. */
  private volatile double machine = 0.1;

  private CpuBudget cores(int n) {
    return new CpuBudget(cpu::get, () -> machine, wall::get, n);
  }

  /** A budget over two cores on the fake clocks. */
  private CpuBudget twoCores() {
    return cores(2);
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
    PolicyView v =
        new PolicyView(rs, new RangePool(2_000_000_000L, new RangeSet()), new Flows(rs, 1, 0));
    for (Flow f : v.flows()) {
      f.measured = true;
    }
    return v;
  }

  private static List<Boolean> mayUse(Adaptive a, PolicyView v) {
    return mayUse(a, v, 0);
  }

  /** Whether each flow may fetch at {@code now} on the scheduler's clock. */
  private static List<Boolean> mayUse(Adaptive a, PolicyView v, long now) {
    List<Boolean> out = new ArrayList<>();
    for (Flow f : v.flows()) {
      out.add(a.mayUse(f, v, now));
    }
    return out;
  }

  @Test
  void busyCpuAtMemorySpeed_onlyTheFastestFlowGoesOn_onTwoCores() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(300e6, 450e6, 240e6, 150e6);
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
    PolicyView v = view(300e6, 450e6, 240e6, 150e6);
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
  void chosenReplicaDropped_everyFlowComesBack() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(300e6, 450e6, 360e6, 240e6);
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
    v.flows().get(1).replica.dropped = true;
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
    // for the rest of the download, however busy the CPU
    run(300, 1.0, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
    assertTrue(a.chosen().isEmpty());
  }

  @Test
  void moreCores_keepAllButOneCoreBusyWithConnections() {
    CpuBudget four = cores(4);
    assertEquals(3, four.connectionsWhenBusy());
    Adaptive a = new Adaptive(four);
    PolicyView v = view(300e6, 450e6, 240e6, 150e6);
    mayUse(a, v);
    run(300, 0.9, 4);
    assertEquals(List.of(true, true, true, false), mayUse(a, v));
    // as many flows as cores less one: nothing to leave out
    Adaptive b = new Adaptive(cores(5));
    mayUse(b, v);
    run(300, 1.0, 5);
    assertEquals(List.of(true, true, true, true), mayUse(b, v));
  }

  @Test
  void chosenFlowsWithLessThanHalfTheRate_everyFlowComesBackForGood() {
    // a fast LAN's disk-bound servers: one connection alone delivers its server's 150 of 380 MB/s
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(100e6, 150e6, 80e6, 50e6);
    mayUse(a, v, 0);
    run(300, 1.0, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v, 0));
    // still settling: the choice stands
    assertEquals(List.of(false, true, false, false), mayUse(a, v, Adaptive.SETTLE_NANOS - 1));
    assertEquals(List.of(true, true, true, true), mayUse(a, v, Adaptive.SETTLE_NANOS));
    run(300, 1.0, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v, 2 * Adaptive.SETTLE_NANOS));
    assertTrue(a.chosen().isEmpty());
  }

  @Test
  void chosenFlowTakingOverTheRate_keepsTheChoice() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(100e6, 150e6, 80e6, 50e6);
    mayUse(a, v, 0);
    run(300, 1.0, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v, 0));
    // given the CPU, the one connection delivers 200 of the 380 MB/s the four did
    v.flows().get(1).recent = 200e6;
    assertEquals(List.of(false, true, false, false), mayUse(a, v, 3 * Adaptive.SETTLE_NANOS));
  }

  @Test
  void aFlowNotMeasuredYet_everyFlowGoesOn() {
    // a replica whose first bytes never came has only a guessed rate
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(300e6, 450e6, 240e6, 150e6);
    v.flows().get(3).measured = false;
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
    v.flows().get(3).measured = true;
    // the CPU is measured from then on: a window later, the choice
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
  }

  @Test
  void littleLeft_everyFlowGoesOn() {
    Adaptive a = new Adaptive(twoCores());
    List<Replica> rs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      rs.add(new Replica(i, URI.create("http://127.0.0.1:" + (8000 + i) + "/f"), 300e6));
    }
    PolicyView v =
        new PolicyView(
            rs,
            new RangePool(Adaptive.CPU_BOUND_REMAINING - 1, new RangeSet()),
            new Flows(rs, 1, 0));
    v.flows().forEach(f -> f.measured = true);
    mayUse(a, v);
    run(300, 1.0, 2);
    assertEquals(List.of(true, true, true, true), mayUse(a, v));
  }

  @Test
  void machineBusyWithOtherWork_countsAsCpuBound() {
    Adaptive a = new Adaptive(twoCores());
    PolicyView v = view(300e6, 450e6, 240e6, 150e6);
    mayUse(a, v);
    machine = 0.95;
    run(300, 0.4, 2);
    assertEquals(List.of(false, true, false, false), mayUse(a, v));
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
    assertEquals(1, cores(1).connectionsWhenBusy());
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

  @Test
  void process_offWithTheProperty() {
    System.setProperty(CpuBudget.PROPERTY, "false");
    try {
      assertEquals(CpuBudget.NONE, CpuBudget.process());
    } finally {
      System.clearProperty(CpuBudget.PROPERTY);
    }
  }
}
