package org.braid.coalloc;

/** Paper 003, 4.3.2: s_i = B_i / A * S. */
final class HistoryBased extends BlockPolicy {
  @Override
  void plan(PolicyView s) {
    double[] w = new double[s.flows().size()];
    for (int i = 0; i < w.length; i++) {
      Flow f = s.flows().get(i);
      if (!(f.replica.predictedRate > 0)) {
        throw new IllegalArgumentException(
            "the history-based scheme needs a predicted rate for every replica; none for "
                + f.replica.uri);
      }
      w[i] = f.rate;
    }
    StaticPolicies.reserveByWeight(s, s.flows(), w);
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return Long.MAX_VALUE;
  }
}
