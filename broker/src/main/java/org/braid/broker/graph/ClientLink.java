package org.braid.broker.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The client's access link in {@link MinMin}: the rate already given to scheduled jobs over time, a
 * step function, and the plan of a job in what is left of the capacity. Not thread-safe (one per
 * schedule).
 */
final class ClientLink {

  private final double capacity;

  /** The rate in use from each key time until the next key; the last level lasts for ever. */
  private final TreeMap<Double, Double> used = new TreeMap<>();

  /** The highest level ever used (kept when earlier levels are forgotten). */
  private double maxUsed;

  ClientLink(double capacity) {
    this.capacity = capacity;
    used.put(0.0, 0.0);
  }

  /** One stretch of a job's transfer at a constant rate. */
  private record Segment(double from, double to, double rate) {}

  private record Profile(MinMin.Scheduled scheduled, List<Segment> segments) {}

  /** The job's completion if scheduled next, its servers free at {@code ready}. */
  MinMin.Scheduled plan(MinMin.Job j, Map<String, Double> ready) {
    return profile(j, ready).scheduled();
  }

  /** Gives the job the rate its plan uses (call before its servers' ready times move). */
  void take(MinMin.Job j, MinMin.Scheduled planned, Map<String, Double> ready) {
    Profile p = profile(j, ready);
    if (p.scheduled().completion() != planned.completion()) {
      throw new IllegalStateException("job " + j.id() + " was planned with other ready times");
    }
    for (Segment s : p.segments()) {
      split(s.from());
      split(s.to());
      for (Map.Entry<Double, Double> e : used.subMap(s.from(), true, s.to(), false).entrySet()) {
        e.setValue(e.getValue() + s.rate());
        maxUsed = Math.max(maxUsed, e.getValue());
      }
    }
  }

  /**
   * Walks the stretches between the times where a server becomes free or the used rate changes; in
   * each, the job gets min(its free servers' summed rates, capacity - used), shared by its servers
   * in proportion to their rates, until it has its size.
   */
  private Profile profile(MinMin.Job j, Map<String, Double> ready) {
    List<String> servers = MinMin.servers(j, ready);
    TreeSet<Double> times = new TreeSet<>(used.keySet());
    for (String s : servers) {
      times.add(ready.getOrDefault(s, 0.0));
    }
    Double[] ts = times.toArray(new Double[0]);
    Map<String, Double> bytes = new LinkedHashMap<>();
    Map<String, Double> starts = new LinkedHashMap<>();
    List<Segment> segments = new ArrayList<>();
    double delivered = 0;
    double rateSum = 0;
    int active = 0;
    double t = Double.NaN;
    for (int i = 0; i < ts.length; i++) {
      double a = ts[i];
      double b = i + 1 < ts.length ? ts[i + 1] : Double.POSITIVE_INFINITY;
      while (active < servers.size() && ready.getOrDefault(servers.get(active), 0.0) <= a) {
        rateSum += j.rates().get(servers.get(active++));
      }
      double rate = Math.min(rateSum, Math.max(0, capacity - used.floorEntry(a).getValue()));
      if (!(rate > 0)) {
        continue;
      }
      double need = j.size() - delivered;
      boolean last = rate * (b - a) >= need;
      double end = last ? a + need / rate : b;
      for (int k = 0; k < active; k++) {
        String s = servers.get(k);
        bytes.merge(s, j.rates().get(s) / rateSum * rate * (end - a), Double::sum);
        starts.putIfAbsent(s, a);
      }
      segments.add(new Segment(a, end, rate));
      delivered += rate * (end - a);
      if (last) {
        t = end;
        break;
      }
    }
    // The last level of the used rate is 0 and every server is free by then: the loop always ends.
    Map<String, Double> ordered = new LinkedHashMap<>();
    Map<String, Double> orderedStarts = new LinkedHashMap<>();
    for (String s : servers) {
      if (bytes.containsKey(s)) {
        ordered.put(s, bytes.get(s));
        orderedStarts.put(s, starts.get(s));
      }
    }
    return new Profile(
        new MinMin.Scheduled(j.id(), t, orderedStarts, MinMin.rounded(ordered, j.size())),
        segments);
  }

  /** The highest summed rate given to jobs at any time. */
  double maxUsed() {
    return maxUsed;
  }

  /**
   * Forgets the levels before {@code t}, when no job can start before it any more (every server is
   * busy until then): the walks of later jobs start at {@code t} or after.
   */
  void forgetBefore(double t) {
    Map.Entry<Double, Double> floor = used.floorEntry(t);
    if (floor == null || floor.getKey() == t) {
      used.headMap(t, false).clear();
      return;
    }
    double level = floor.getValue();
    used.headMap(t, false).clear();
    used.put(t, level);
  }

  private void split(double t) {
    if (!used.containsKey(t)) {
      used.put(t, used.floorEntry(t).getValue());
    }
  }
}
