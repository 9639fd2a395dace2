package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class SchedulerPropertiesTest {

  @Provide
  Arbitrary<String> schemes() {
    return Arbitraries.of("single", "brute", "history", "conservative", "aggressive", "adaptive");
  }

  @Property(tries = 400)
  void plan_everyScheme_coversFileExactlyOnce(
      @ForAll("schemes") String scheme,
      @ForAll @LongRange(min = 0, max = 3_000_000) long size,
      @ForAll @IntRange(min = 1, max = 5) int replicas,
      @ForAll @IntRange(min = 1, max = 3) int connections,
      @ForAll @IntRange(min = 1, max = 15) int blocks,
      @ForAll("rates") List<Double> rates,
      @ForAll @IntRange(min = -1, max = 4) int failing,
      @ForAll boolean retryable,
      @ForAll @LongRange(min = 0, max = 2_000_000) long failAfter) {
    List<Simulator.Mirror> ms = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      double r = rates.get(i % rates.size());
      // predictions deliberately wrong by up to 4x
      double predicted = r * (0.25 + (i * 0.37) % 4);
      Simulator.Mirror m = new Simulator.Mirror(t -> r, 0.002 * (i + 1), predicted);
      if (i == failing && replicas > 1) {
        m.failAfter = failAfter;
        m.failRetryable = retryable;
      }
      ms.add(m);
    }
    Simulator.Result res =
        Simulator.run(size, ms, connections, Scheme.parse(scheme, blocks), true, 600);
    assertNull(res.failure, () -> "failed: " + res.failure);
    assertTrue(res.complete, "incomplete after " + res.seconds + " s");
    assertEquals(size, res.committed);
    for (int i = 0; i < size; i++) {
      if (res.writes[i] != 1) {
        throw new AssertionError("byte " + i + " written " + res.writes[i] + " times");
      }
    }
  }

  @Property(tries = 100)
  void adaptive_replicaStallsForever_stillCoversFileExactlyOnce(
      @ForAll @LongRange(min = 1, max = 3_000_000) long size,
      @ForAll @IntRange(min = 2, max = 4) int replicas,
      @ForAll @IntRange(min = 1, max = 3) int connections,
      @ForAll("rates") List<Double> rates,
      @ForAll @IntRange(min = 0, max = 3) int stalling,
      @ForAll @LongRange(min = 0, max = 2_000_000) long stallAfter) {
    List<Simulator.Mirror> ms = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      double r = rates.get(i % rates.size());
      Simulator.Mirror m = new Simulator.Mirror(t -> r, 0.002, 0);
      if (i == stalling % replicas) {
        m.stallAfter = stallAfter;
      }
      ms.add(m);
    }
    // no stall timeout in the simulation: only taking the range over can finish the download
    Simulator.Result res = Simulator.run(size, ms, connections, Scheme.adaptive(), true, 600);
    assertNull(res.failure);
    assertTrue(res.complete, "incomplete after " + res.seconds + " s");
    for (int i = 0; i < size; i++) {
      if (res.writes[i] != 1) {
        throw new AssertionError("byte " + i + " written " + res.writes[i] + " times");
      }
    }
  }

  @Provide
  Arbitrary<List<Double>> rates() {
    return Arbitraries.doubles().between(50_000, 5_000_000).list().ofMinSize(1).ofMaxSize(5);
  }
}
