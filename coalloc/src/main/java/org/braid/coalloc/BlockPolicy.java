package org.braid.coalloc;

import java.net.URI;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The per-download behaviour of a {@link Scheme}: the static plan, who may fetch, block sizes,
 * reaction to finished blocks, and whether idle flows steal. Called with the scheduler's lock held.
 */
abstract class BlockPolicy {

  /** The public description of a scheme; {@link #create} makes the per-download policy. */
  record Spec(String name, int blocks) implements Scheme {
    /**
     * What this scheme lacks to download from the given sources with the given predicted rates (0
     * for none), as a message naming it; null when nothing is missing.
     */
    String unmet(List<URI> sources, ToDoubleFunction<URI> rate) {
      if (name.equals("history")) {
        for (URI u : sources) {
          if (!(rate.applyAsDouble(u) > 0)) {
            return "the history scheme needs a predicted rate for every source; none for "
                + u
                + " (give one with predictedRates)";
          }
        }
      }
      return null;
    }

    BlockPolicy create() {
      return create(CpuBudget.NONE);
    }

    /**
     * The per-download policy; the default scheme measures the process's CPU use with {@code cpu}.
     */
    BlockPolicy create(CpuBudget cpu) {
      switch (name) {
        case "single":
          return new SingleBest();
        case "brute":
          return new BruteForce();
        case "history":
          return new HistoryBased();
        case "conservative":
          return new Conservative(blocks);
        case "aggressive":
          return new Aggressive(blocks);
        default:
          return new Adaptive(cpu);
      }
    }
  }

  /** Reserves static shares before the download starts. */
  void plan(PolicyView s) {}

  /** Whether the flow may fetch anything now. */
  boolean mayUse(Flow f, PolicyView s, long now) {
    return true;
  }

  /** Bytes to take from the pool for an idle flow; 0 for none now. */
  abstract long blockSize(Flow f, PolicyView s, long now);

  /** A remainder of a free range shorter than this is added to the flow's block before it. */
  long absorbBelow(Flow f) {
    return 0;
  }

  /** A flow finished a block at the given rate (bytes per second). */
  void completed(Flow f, double rate, PolicyView s) {}

  /**
   * For a running block whose flow has {@code remaining} bytes of it left: how many the flow should
   * keep, the rest going back to the pool; -1 to leave the block as it is.
   */
  long keepOf(Flow f, long remaining, PolicyView s, long now) {
    return -1;
  }

  /** Whether idle flows split or duplicate unfinished blocks once the pool is empty. */
  boolean steals() {
    return false;
  }

  static boolean anyAlive(PolicyView s) {
    return s.replicas().stream().anyMatch(r -> !r.dropped);
  }
}
