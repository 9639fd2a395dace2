package org.braid.coalloc;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What idle flows do about running blocks: cut back a block whose flow slowed down (its policy says
 * how much to keep), and once the pool is empty split or duplicate the block that would finish
 * last. Not thread-safe: called with the scheduler's lock held.
 */
final class EndGame {
  // logs under the scheduler's name, as it always did (logging configurations name it)
  private static final Logger LOG = LoggerFactory.getLogger(BlockScheduler.class);

  /** Smallest range worth a separate request (aggressive stealing, adaptive blocks). */
  static final long MIN_STEAL = 128 * 1024;

  private final RangePool pool;
  private final BlockPolicy policy;

  /** Running blocks cut back so far (see {@link #cutBack}). */
  private int cuts;

  EndGame(RangePool pool, BlockPolicy policy) {
    this.pool = pool;
    this.policy = policy;
  }

  /** How many running blocks were cut back because their flow slowed down. */
  int cuts() {
    return cuts;
  }

  /**
   * Returns to the pool the part of each running block that its flow should no longer hold (see
   * {@link BlockPolicy#keepOf}). The flow's request ends early at the new end; the cut-off range
   * lies before the rest of the pool, so the idle flow asking for work takes it first.
   */
  void cutBack(PolicyView s, long now) {
    for (Block b : List.copyOf(pool.active())) {
      if (b.leases.size() != 1) {
        continue;
      }
      Lease l = b.leases.get(0);
      if (l.duplicate || l.firstByteNanos < 0 || l.flow.replica.wholeFile) {
        // a whole-file flow cut back could not fetch the rest: others take it by splitting
        continue;
      }
      long rem;
      synchronized (b) {
        rem = b.done ? 0 : b.end - b.committed;
      }
      if (rem <= 0) {
        continue;
      }
      long keep = policy.keepOf(l.flow, rem, s, now);
      if (keep < 0) {
        continue;
      }
      synchronized (b) {
        // bytes already asked for in pipelined requests are on their way: never cut below them
        long cut = Math.max(b.committed + keep, l.sent);
        if (!b.done && cut < b.end) {
          LOG.debug(
              "{} slowed down: its block ends at {} instead of {}", l.flow.label(), cut, b.end);
          pool.giveBack(cut, b.end);
          b.end = cut;
          cuts++;
        }
      }
    }
  }

  /**
   * Splits the unfinished block that would take longest, giving the idle flow the tail in
   * proportion to the two rates; when the rest is too small to split, fetches it from this flow too
   * and keeps whichever bytes arrive first.
   */
  Lease steal(Flow thief, PolicyView s, long now) {
    Target t = slowest(thief, s, now);
    return t == null ? null : takeOver(thief, t, s, now);
  }

  /** TCP's initial window: ten segments of 1448 bytes. */
  static final double INITIAL_WINDOW = 10 * 1448;

  /**
   * Seconds a flow whose connection was closed loses before a new one delivers at {@code rate}
   * bytes per second, {@code rtt} seconds away: the connect, and slow start's rounds (the window
   * doubles each round trip from {@link #INITIAL_WINDOW} to the bandwidth-delay product, sending
   * about two of those products meanwhile, which take two round trips at the full rate). At 200 ms
   * and 5 MB/s about five round trips (1 s); at 50 ms about three (0.15 s). Without it a distant
   * flow that lost its connection took tails it then delivered last, from slow start (issue 17: 213
   * KB in 0.85 s at the end of a 4w run at 200 ms).
   */
  static double coldSeconds(double rate, double rtt) {
    if (rtt <= 0 || rate <= 0) {
      return Math.max(0, rtt);
    }
    double rounds = Math.log(Math.max(1, rate * rtt / INITIAL_WINDOW)) / Math.log(2);
    return rtt * (1 + Math.max(0, rounds - 2));
  }

  /**
   * The share of a block's remaining time within which an idle flow must be able to fetch all of it
   * to join it as a duplicate (a third fetcher, once two fetch it).
   */
  static final double MUCH_SOONER = 0.8;

  /** A running block, the seconds it would still take, and its fastest fetcher's rate. */
  private record Target(Block block, double seconds, double rate) {}

  /**
   * The running block that would finish last and that the thief may join; null if none. A block
   * fetched twice already is joined only when all its fetchers went silent or the thief, idle,
   * would fetch it all in less than {@link #MUCH_SOONER} of the time its fastest fetcher needs; and
   * never twice from the same replica.
   */
  private Target slowest(Flow thief, PolicyView s, long now) {
    Block best = null;
    double bestTime = 0;
    double bestRate = 0;
    double rt = s.rateOf(thief, now);
    double lt = Math.max(0, thief.latencyNanos) / 1e9;
    for (Block b : pool.active()) {
      boolean mine = false;
      boolean own = false;
      boolean allSilent = true;
      for (Lease x : b.leases) {
        mine |= x.flow.replica == thief.replica;
        own |= x.flow == thief;
        allSilent &= x.flow.fade(now) < 1;
      }
      // a flow taking its next block ahead never takes part of the one it fetches
      if (own || b.leases.isEmpty() || (b.leases.size() > 1 && mine)) {
        continue;
      }
      long rem;
      synchronized (b) {
        if (b.done) {
          continue;
        }
        rem = b.end - b.committed;
      }
      if (rem <= 0) {
        continue;
      }
      double rv = 1;
      boolean waiting = true;
      for (Lease x : b.leases) {
        rv = Math.max(rv, s.rateOf(x.flow, now));
      }
      // a fetcher still waiting for its first byte needs a round trip more
      for (Lease x : b.leases) {
        waiting &= x.firstByteNanos < 0;
      }
      double tv = rem / rv;
      if (waiting) {
        tv += Math.max(0, b.leases.get(0).flow.latencyNanos) / 1e9;
      }
      boolean muchSooner = thief.current == null && rt > 0 && rem / rt + lt < tv * MUCH_SOONER;
      if (b.leases.size() > 1 && !allSilent && !muchSooner) {
        continue;
      }
      if (tv > bestTime) {
        best = b;
        bestTime = tv;
        bestRate = rv;
      }
    }
    return best == null ? null : new Target(best, bestTime, bestRate);
  }

  /**
   * Gives the thief the tail of the target block, sized so that both finish together, or when the
   * rest is too small to split (or all its fetchers went silent) a duplicate request for it.
   */
  private Lease takeOver(Flow thief, Target target, PolicyView s, long now) {
    Block best = target.block();
    double bestTime = target.seconds();
    double bestRate = target.rate();
    double rt = s.rateOf(thief, now);
    if (rt <= 0) {
      rt = bestRate;
    }
    double lt = Math.max(0, thief.latencyNanos) / 1e9;
    Lease busy = thief.current;
    if (busy != null) {
      // taken ahead: the thief reads these bytes once its current block is in
      synchronized (busy.block) {
        lt = Math.max(lt, Math.max(0, busy.block.end - busy.pos) / rt);
      }
    }
    if (thief.cold) {
      lt += coldSeconds(rt, Math.max(0, thief.latencyNanos) / 1e9);
    }
    long minSteal = Math.max(MIN_STEAL, (long) (rt * lt * 2));
    boolean silent = true;
    boolean otherReplica = true;
    for (Lease x : best.leases) {
      silent &= x.flow.fade(now) < 1;
      otherReplica &= x.flow.replica != thief.replica;
    }
    synchronized (best) {
      long rem = best.end - best.committed;
      // both finish together: (rem - x) / rv = lt + x / rt
      long x = (long) (rt * (rem - lt * bestRate) / (rt + bestRate));
      Flow holder = best.leases.get(0).flow;
      if (holder.replica.wholeFile && !(holder.measured && thief.measured)) {
        // rates unknown: a small tail measures them, a later steal splits by rate (a whole-file
        // flow that finishes its part early cannot help with the rest)
        x = Math.min(x, Math.max(minSteal, rem / 16));
      }
      if (best.leases.size() == 1 && x >= minSteal && x / rt + lt < bestTime) {
        // bytes already asked for in pipelined requests are on their way: never split below them
        long split = Math.max(best.end - x, Math.max(best.committed, best.leases.get(0).sent));
        long oldEnd = best.end;
        if (oldEnd - split >= minSteal) {
          best.end = split;
          Lease t =
              Lease.start(pool.open(split, oldEnd), thief, split, /* duplicate= */ false, now);
          pool.settle(best);
          return t;
        }
      }
      if (otherReplica && rem > 0 && (silent || rem / rt + lt < bestTime * MUCH_SOONER)) {
        return Lease.start(best, thief, best.committed, /* duplicate= */ true, now);
      }
    }
    return null;
  }
}
