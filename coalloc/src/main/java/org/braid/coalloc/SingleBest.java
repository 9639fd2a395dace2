package org.braid.coalloc;

import java.util.List;

/** The whole file from the best replica (highest prediction, else the first listed). */
final class SingleBest extends BlockPolicy {
  private Replica best(PolicyView s) {
    Replica best = null;
    for (Replica r : s.replicas()) {
      if (!r.dropped && (best == null || r.predictedRate > best.predictedRate)) {
        best = r;
      }
    }
    return best;
  }

  @Override
  void plan(PolicyView s) {
    Replica b = best(s);
    List<Flow> mine = s.flows().stream().filter(f -> f.replica == b).toList();
    double[] w = new double[mine.size()];
    java.util.Arrays.fill(w, 1);
    StaticPolicies.reserveByWeight(s, mine, w);
  }

  @Override
  boolean mayUse(Flow f, PolicyView s, long now) {
    return f.replica == best(s);
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return Long.MAX_VALUE;
  }
}
