package org.braid.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.braid.broker.Plan;
import org.braid.coalloc.PredictedRate;

/**
 * Converts the broker's co-allocation {@link Plan} into the downloader's inputs: the replica URLs
 * in plan order and their predicted rates (for {@code braid get --metalink/--catalog}).
 */
final class BrokerPlans {

  private BrokerPlans() {}

  /** The plan's replicas, best first. */
  static List<URI> sources(Plan plan) {
    List<URI> out = new ArrayList<>();
    for (Plan.Share s : plan.shares()) {
      out.add(s.replica().uri());
    }
    return out;
  }

  /** The predicted rates of the plan's replicas that have one (a rate of 0 means no forecast). */
  static List<PredictedRate> rates(Plan plan) {
    List<PredictedRate> out = new ArrayList<>();
    for (Plan.Share s : plan.shares()) {
      if (s.predictedRate() > 0 && Double.isFinite(s.predictedRate())) {
        out.add(new PredictedRate(s.replica().uri(), s.predictedRate()));
      }
    }
    return out;
  }
}
