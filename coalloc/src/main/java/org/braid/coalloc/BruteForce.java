package org.braid.coalloc;

/** Paper 003, 4.3.1: S/n per flow. */
final class BruteForce extends BlockPolicy {
  @Override
  void plan(PolicyView s) {
    double[] w = new double[s.flows().size()];
    java.util.Arrays.fill(w, 1);
    StaticPolicies.reserveByWeight(s, s.flows(), w);
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return Long.MAX_VALUE; // only ranges returned by failures reach the pool
  }
}
