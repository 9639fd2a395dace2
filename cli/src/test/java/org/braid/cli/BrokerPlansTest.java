package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import org.braid.broker.Plan;
import org.braid.broker.catalog.Replica;
import org.braid.coalloc.PredictedRate;
import org.junit.jupiter.api.Test;

class BrokerPlansTest {

  @Test
  void rates_skipSharesWithoutForecast_sourcesKeepPlanOrder() {
    Plan p =
        new Plan(
            100,
            List.of(
                new Plan.Share(Replica.of("http://a/f"), 60e6, 0.6, 60),
                new Plan.Share(Replica.of("http://b/f"), 0, 0.4, 40)),
            60e6,
            60e6,
            List.of());
    assertEquals(
        List.of(URI.create("http://a/f"), URI.create("http://b/f")), BrokerPlans.sources(p));
    assertEquals(List.of(new PredictedRate(URI.create("http://a/f"), 60e6)), BrokerPlans.rates(p));
  }
}
