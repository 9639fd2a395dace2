package org.braid.coalloc;

/**
 * Decides what an idle flow fetches next: its reserved share (static schemes), else a block from
 * the front of the free pool sized by the {@link BlockPolicy}, else (once the pool is empty, for
 * schemes that steal) part of a running block, see {@link EndGame}. A replica that served the front
 * of the pool badly leaves it to another that may fetch. Not thread-safe: called with the
 * scheduler's lock held.
 */
final class Assigner {
  private final BlockPolicy policy;
  private final PolicyView view;
  private final RangePool pool;
  private final Flows flows;
  private final ReplicaHealth health;
  private final EndGame endGame;

  Assigner(BlockPolicy policy, PolicyView view, RangePool pool, Flows flows, ReplicaHealth health) {
    this.policy = policy;
    this.view = view;
    this.pool = pool;
    this.flows = flows;
    this.health = health;
    this.endGame = new EndGame(pool, policy);
  }

  /** The next request for the idle flow, started at {@code now}; null if none now. */
  Lease assign(Flow f, long now) {
    if (!policy.mayUse(f, view, now)) {
      return null;
    }
    ByteRange r = f.reserved.poll();
    if (r != null) {
      return newLease(f, r.start(), r.end(), now);
    }
    if (f.replica.wholeFile) {
      return wholeFile(f, now);
    }
    endGame.cutBack(view, now);
    if (pool.hasFree() && !avoidFree(f.replica, now)) {
      long want = policy.blockSize(f, view, now);
      if (want <= 0) {
        return null;
      }
      if (pool.firstFreeLength() - want < policy.absorbBelow(f)) {
        want = pool.firstFreeLength(); // leave no sliver that would cost a request of its own
      }
      ByteRange t = pool.take(want);
      return newLease(f, t.start(), t.end(), now);
    }
    return policy.steals() && !pool.hasFree() ? endGame.steal(f, view, now) : null;
  }

  /**
   * Before the first request, with a policy that steals: the first live replica that sends only the
   * whole file is given the file from its first byte (the first free range), and the replicas that
   * serve ranges take their shares from its end by splitting it ({@link EndGame}), so the flows
   * meet in between.
   */
  void reserveWholeFile() {
    if (!policy.steals() || pool.firstFreeStart() != 0) {
      return;
    }
    for (Flow f : flows.all()) {
      if (f.replica.wholeFile && !f.replica.dropped) {
        f.reserved.add(pool.take(pool.firstFreeLength()));
        return;
      }
    }
  }

  /**
   * The next request of a flow whose replica sends only the whole file (its reservation aside):
   * none while a replica that serves ranges is alive, since any range but the file's start costs it
   * the bytes before; else the first free range, read from byte 0.
   */
  private Lease wholeFile(Flow f, long now) {
    if (!pool.hasFree()) {
      return null;
    }
    for (Replica r : view.replicas()) {
      if (!r.dropped && !r.wholeFile) {
        return null;
      }
    }
    ByteRange t = pool.take(pool.firstFreeLength());
    return newLease(f, t.start(), t.end(), now);
  }

  /** Whether the free pool starts in a range this replica served badly while another could. */
  private boolean avoidFree(Replica me, long now) {
    long s = pool.firstFreeStart();
    if (s < 0 || !health.servedBadly(me, s)) {
      return false;
    }
    for (Flow g : flows.all()) {
      Replica r = g.replica;
      if (r != me && !r.dropped && !health.servedBadly(r, s) && policy.mayUse(g, view, now)) {
        return true;
      }
    }
    return false;
  }

  private Lease newLease(Flow f, long start, long end, long now) {
    return Lease.start(pool.open(start, end), f, start, /* duplicate= */ false, now);
  }

  /** How many running blocks were cut back because their flow slowed down. */
  int cuts() {
    return endGame.cuts();
  }
}
