package org.braid.broker.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Min-Min with the client's access link shared by every job. */
class MinMinCapacityTest {

  static double makespan(List<MinMin.Scheduled> s) {
    return s.stream().mapToDouble(MinMin.Scheduled::completion).max().orElse(0);
  }

  @Test
  void schedule_capacityBelowTheRates_makespanAsComputedByHand() {
    // Client link 100 B/s. w: 500 B from c (50 B/s); z: 1200 B from a and b (60 B/s each).
    // Alone: w 500/50 = 10 s; z min(120, 100) = 100 B/s -> 12 s. w is scheduled first and uses
    // 50 B/s over [0, 10). z then gets min(120, 100 - 50) = 50 B/s until 10 (500 B), then 100 B/s
    // for the remaining 700 B: 7 s -> z completes at 17 s, the makespan. a and b share z's rate
    // equally: 600 B each.
    List<MinMin.Job> jobs =
        List.of(
            new MinMin.Job("z", 1200, Map.of("a", 60.0, "b", 60.0)),
            new MinMin.Job("w", 500, Map.of("c", 50.0)));
    List<MinMin.Scheduled> s = MinMin.schedule(jobs, 100);
    assertEquals(List.of("w", "z"), s.stream().map(MinMin.Scheduled::id).toList());
    assertEquals(10, s.get(0).completion(), 1e-9);
    assertEquals(17, s.get(1).completion(), 1e-9);
    assertEquals(17, makespan(s), 1e-9);
    assertEquals(Map.of("a", 600L, "b", 600L), s.get(1).shares());
    assertEquals(Map.of("a", 0.0, "b", 0.0), s.get(1).starts());
    // Without the limit: both take 10 s (z on 120 B/s), z first by list order.
    List<MinMin.Scheduled> free = MinMin.schedule(jobs);
    assertEquals(10, makespan(free), 1e-9);
    assertEquals(List.of("z", "w"), free.stream().map(MinMin.Scheduled::id).toList());
  }

  @Test
  void schedule_twoServersTwoFiles_laterJobGetsWhatIsLeft() {
    // Link 100 B/s; x and y 1000 B each, each from its own 80 B/s server. x (first in the list on a
    // tie) takes 80 B/s for 12.5 s; y gets 20 B/s meanwhile (250 B), then 80 B/s for the other
    // 750 B: 9.375 s -> 21.875 s. (Without the limit both finish at 12.5 s.)
    List<MinMin.Job> jobs =
        List.of(
            new MinMin.Job("x", 1000, Map.of("a", 80.0)),
            new MinMin.Job("y", 1000, Map.of("b", 80.0)));
    List<MinMin.Scheduled> s = MinMin.schedule(jobs, 100);
    assertEquals(12.5, s.get(0).completion(), 1e-9);
    assertEquals(21.875, s.get(1).completion(), 1e-9);
    assertEquals(12.5, makespan(MinMin.schedule(jobs)), 1e-9);
  }

  @Test
  void schedule_busyServerAndCapacity_serverJoinsWhenFree() {
    // Link 100 B/s. x: 600 B from a (100 B/s) -> [0, 6). y: 900 B from a and b (50 B/s each):
    // a is busy until 6; b alone could run at 50 but the link is full until 6 (x uses 100). From
    // 6 both run: min(100, 100) = 100 B/s -> 9 s more -> 15 s; a and b deliver 450 B each.
    List<MinMin.Scheduled> s =
        MinMin.schedule(
            List.of(
                new MinMin.Job("x", 600, Map.of("a", 100.0)),
                new MinMin.Job("y", 900, Map.of("a", 50.0, "b", 50.0))),
            100);
    assertEquals(List.of("x", "y"), s.stream().map(MinMin.Scheduled::id).toList());
    assertEquals(15, s.get(1).completion(), 1e-9);
    assertEquals(Map.of("a", 450L, "b", 450L), s.get(1).shares());
    assertEquals(6, s.get(1).starts().get("b"), 1e-9, "b delivers nothing while the link is full");
  }

  @Test
  void schedule_capacityAboveEveryRateSum_sameAsWithout() {
    List<MinMin.Job> jobs =
        List.of(
            new MinMin.Job("y", 2000, Map.of("a", 100.0, "b", 50.0)),
            new MinMin.Job("x", 1000, Map.of("a", 100.0)));
    // x alone on a uses 100 of 1e9; y's servers a (after x) and b never approach the limit.
    List<MinMin.Scheduled> capped = MinMin.schedule(jobs, 1e9);
    List<MinMin.Scheduled> free = MinMin.schedule(jobs);
    for (int i = 0; i < free.size(); i++) {
      assertEquals(free.get(i).id(), capped.get(i).id());
      assertEquals(free.get(i).completion(), capped.get(i).completion(), 1e-9);
      assertEquals(free.get(i).shares(), capped.get(i).shares());
    }
  }

  static List<MinMin.Job> randomJobs(SplittableRandom rnd) {
    List<MinMin.Job> jobs = new ArrayList<>();
    int n = 1 + rnd.nextInt(8);
    for (int i = 0; i < n; i++) {
      Map<String, Double> rates = new HashMap<>();
      int servers = 1 + rnd.nextInt(3);
      for (int k = 0; k < servers; k++) {
        rates.put("s" + rnd.nextInt(5), 10.0 + rnd.nextInt(90));
      }
      jobs.add(new MinMin.Job("j" + i, 100 + rnd.nextInt(10_000), rates));
    }
    return jobs;
  }

  @Test
  void schedule_randomBatches_linkNeverOverfull_andEveryJobGetsItsSize() {
    // (Min-Min is greedy: a limit can change the order, and the capped makespan may even beat the
    // unlimited one, so that is not an invariant.) Replaying the schedule on a ClientLink, the
    // summed rate of the jobs never exceeds the capacity at any time.
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      List<MinMin.Job> jobs = randomJobs(rnd);
      double cap = 20 + rnd.nextInt(200);
      List<MinMin.Scheduled> s = MinMin.schedule(jobs, cap);
      assertEquals(jobs.size(), s.size());
      ClientLink link = new ClientLink(cap);
      Map<String, Double> ready = new HashMap<>();
      long total = 0;
      for (MinMin.Scheduled x : s) {
        MinMin.Job job = jobs.stream().filter(j -> j.id().equals(x.id())).findFirst().orElseThrow();
        total += job.size();
        assertEquals(job.size(), x.shares().values().stream().mapToLong(Long::longValue).sum());
        double rateSum = job.rates().values().stream().mapToDouble(Double::doubleValue).sum();
        assertTrue(x.completion() >= job.size() / Math.min(cap, rateSum) - 1e-6, "round " + round);
        MinMin.Scheduled again = link.plan(job, ready);
        assertEquals(x.completion(), again.completion());
        link.take(job, again, ready);
        x.shares().keySet().forEach(server -> ready.put(server, x.completion()));
      }
      assertTrue(
          link.maxUsed() <= cap * (1 + 1e-9),
          "round " + round + ": " + link.maxUsed() + " > " + cap);
      assertTrue(makespan(s) >= total / cap - 1e-6, "round " + round);
    }
  }

  @Test
  void schedule_randomBatches_capacityThatCannotBind_sameAsWithout() {
    // Concurrent jobs use distinct servers, so a capacity at least the sum of every server's
    // highest rate never binds: the schedule must be the unlimited one.
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 200; round++) {
      List<MinMin.Job> jobs = randomJobs(rnd);
      Map<String, Double> highest = new HashMap<>();
      jobs.forEach(j -> j.rates().forEach((k, r) -> highest.merge(k, r, Math::max)));
      double cap = highest.values().stream().mapToDouble(Double::doubleValue).sum();
      List<MinMin.Scheduled> capped = MinMin.schedule(jobs, cap);
      List<MinMin.Scheduled> free = MinMin.schedule(jobs);
      assertEquals(
          free.stream().map(MinMin.Scheduled::id).toList(),
          capped.stream().map(MinMin.Scheduled::id).toList());
      for (int i = 0; i < free.size(); i++) {
        assertEquals(
            free.get(i).completion(), capped.get(i).completion(), 1e-6 * free.get(i).completion());
      }
    }
  }

  @Test
  void schedule_badCapacity_rejected() {
    List<MinMin.Job> one = List.of(new MinMin.Job("j", 1, Map.of("a", 1.0)));
    assertThrows(IllegalArgumentException.class, () -> MinMin.schedule(one, 0));
    assertThrows(IllegalArgumentException.class, () -> MinMin.schedule(one, Double.NaN));
  }
}
