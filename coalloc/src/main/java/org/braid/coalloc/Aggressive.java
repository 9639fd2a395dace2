package org.braid.coalloc;

/**
 * Paper 003, 4.3.3: unit S/k; double the block size of a flow that beats the running maximum (and
 * reset the maximum to its rate), one unit for a slower one, and stop using a flow below {@link
 * #STOP_FRACTION} of the maximum.
 */
final class Aggressive extends BlockPolicy {
  /** "Significantly less than the maximum": below this fraction a flow is stopped. */
  static final double STOP_FRACTION = 0.25;

  private final int k;
  private long unit;
  private double runningMax;

  Aggressive(int k) {
    this.k = k;
  }

  @Override
  void plan(PolicyView s) {
    unit = Math.max(1, (s.size() + k - 1) / k);
  }

  @Override
  boolean mayUse(Flow f, PolicyView s, long now) {
    if (!f.stopped) {
      return true;
    }
    // a stopped flow comes back only when no running flow is left
    return s.flows().stream().noneMatch(g -> !g.stopped && !g.replica.dropped);
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return unit > s.size() / f.multiplier ? s.size() : unit * f.multiplier;
  }

  @Override
  void completed(Flow f, double rate, PolicyView s) {
    if (rate > runningMax) {
      f.multiplier = Math.min(f.multiplier * 2, 1 << 20);
      runningMax = rate;
    } else if (rate < runningMax * STOP_FRACTION) {
      f.stopped = true;
    } else {
      f.multiplier = 1;
    }
  }
}
