package org.braid.broker.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

class GraphPropertiesTest {

  @Property(tries = 200)
  boolean minMinPlan_sharesCoverTheFileExactly_andNoServerBeatsItsRate(
      @ForAll @LongRange(min = 1, max = 10_000_000_000L) long size,
      @ForAll @Size(min = 1, max = 6) List<@DoubleRange(min = 1, max = 1e9) Double> rates,
      @ForAll @Size(min = 6, max = 6) List<@DoubleRange(min = 0, max = 100) Double> ready) {
    Map<String, Double> r = new HashMap<>();
    Map<String, Double> busy = new HashMap<>();
    for (int i = 0; i < rates.size(); i++) {
      r.put("s" + i, rates.get(i));
      busy.put("s" + i, ready.get(i));
    }
    MinMin.Scheduled s = MinMin.plan(new MinMin.Job("j", size, r), busy);
    long sum = s.shares().values().stream().mapToLong(Long::longValue).sum();
    boolean ratesOk = true;
    for (Map.Entry<String, Long> e : s.shares().entrySet()) {
      double window = s.completion() - busy.get(e.getKey());
      ratesOk &= e.getValue() >= 0 && e.getValue() <= r.get(e.getKey()) * window * (1 + 1e-9) + 1;
    }
    return sum == size && ratesOk;
  }

  @Property(tries = 200)
  boolean maxFlow_neverAboveLinksOrBottleneck(
      @ForAll @Size(min = 1, max = 8) List<@DoubleRange(min = 0, max = 1e9) Double> caps,
      @ForAll @DoubleRange(min = 0, max = 1e9) double bottleneck,
      @ForAll @IntRange(min = 0, max = 8) int grouped) {
    PlatformGraph.Builder b = PlatformGraph.builder();
    List<String> hosts = new ArrayList<>();
    double sum = 0;
    double groupSum = 0;
    for (int i = 0; i < caps.size(); i++) {
      b.link("h" + i, "me", caps.get(i));
      hosts.add("h" + i);
      sum += caps.get(i);
      if (i < grouped) {
        groupSum += caps.get(i);
      }
    }
    int g = Math.min(grouped, caps.size());
    if (g > 0) {
      b.sharedBottleneck("b", "me", bottleneck, hosts.subList(0, g));
    }
    double f = b.build().maxFlow(hosts, "me").value();
    double expected = sum - (g > 0 ? groupSum - Math.min(groupSum, bottleneck) : 0);
    return Math.abs(f - expected) <= 1e-6 * Math.max(1, expected);
  }
}
