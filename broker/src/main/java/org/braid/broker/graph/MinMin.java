package org.braid.broker.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Batch planning for many files (paper 001, Algorithm 4): Min-Min on expected completion time.
 *
 * <p>Each job is one file with the predicted rate of each of its replica servers. A server serves
 * one job at a time at its rate; a job is co-allocated over its servers, each starting when it is
 * free, with portions sized so that all finish together (the earliest possible completion given
 * the servers' ready times). Repeatedly, the pending job with the minimum expected completion time
 * is scheduled and its servers become busy until then. Cost: O(J^2 S log S) for J jobs of S
 * servers. Stateless and thread-safe.
 */
public final class MinMin {

  private MinMin() {}

  /**
   * One file to fetch.
   *
   * @param id names the job in the result
   * @param size bytes, positive
   * @param rates predicted rate per server (bytes per second), at least one positive
   */
  public record Job(String id, long size, Map<String, Double> rates) {
    /**
     * Checks the job.
     *
     * @throws IllegalArgumentException if the size is not positive or no rate is positive and finite
     */
    public Job {
      Objects.requireNonNull(id, "id");
      if (size <= 0) {
        throw new IllegalArgumentException("job " + id + ": size must be positive: " + size);
      }
      rates = Map.copyOf(rates);
      if (rates.values().stream().noneMatch(r -> r > 0 && Double.isFinite(r))) {
        throw new IllegalArgumentException("job " + id + ": no server with a positive rate");
      }
    }
  }

  /**
   * A scheduled job: when each server starts on it, how many bytes each delivers, and when it
   * completes (seconds from the start of the batch).
   */
  public record Scheduled(String id, double completion, Map<String, Double> starts, Map<String, Long> shares) {
    /** Copies the maps. */
    public Scheduled {
      starts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(starts));
      shares = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shares));
    }
  }

  /**
   * The jobs in the order Min-Min schedules them.
   *
   * @throws NullPointerException if the list or a job is null
   * @throws IllegalArgumentException if two jobs have the same id
   */
  public static List<Scheduled> schedule(List<Job> jobs) {
    List<Job> pending = new ArrayList<>(jobs);
    if (pending.stream().map(Job::id).distinct().count() != pending.size()) {
      throw new IllegalArgumentException("job ids must be unique");
    }
    Map<String, Double> ready = new HashMap<>();
    List<Scheduled> out = new ArrayList<>();
    while (!pending.isEmpty()) {
      Scheduled best = null;
      Job bestJob = null;
      for (Job j : pending) {
        Scheduled s = plan(j, ready);
        if (best == null || s.completion() < best.completion()) {
          best = s;
          bestJob = j;
        }
      }
      out.add(best);
      pending.remove(bestJob);
      for (String server : best.shares().keySet()) {
        ready.put(server, best.completion());
      }
    }
    return out;
  }

  /** Water-filling: the earliest T with sum of rate_i * (T - ready_i)+ = size. */
  static Scheduled plan(Job j, Map<String, Double> ready) {
    List<String> servers = new ArrayList<>();
    j.rates().forEach((s, r) -> {
      if (r > 0 && Double.isFinite(r)) {
        servers.add(s);
      }
    });
    servers.sort(Comparator.<String>comparingDouble(s -> ready.getOrDefault(s, 0.0)).thenComparing(s -> s));
    double rateSum = 0;
    double weighted = 0;
    double t = Double.POSITIVE_INFINITY;
    int used = 0;
    for (int k = 0; k < servers.size(); k++) {
      String s = servers.get(k);
      double r = j.rates().get(s);
      rateSum += r;
      weighted += r * ready.getOrDefault(s, 0.0);
      double tk = (j.size() + weighted) / rateSum;
      used = k + 1;
      t = tk;
      if (k + 1 == servers.size() || tk <= ready.getOrDefault(servers.get(k + 1), 0.0)) {
        break;
      }
    }
    Map<String, Double> starts = new LinkedHashMap<>();
    Map<String, Long> shares = new LinkedHashMap<>();
    // Cumulative rounding: every share is within one byte of its ideal, and they sum to the size.
    long assigned = 0;
    double ideal = 0;
    for (int k = 0; k < used; k++) {
      String s = servers.get(k);
      double st = ready.getOrDefault(s, 0.0);
      ideal += j.rates().get(s) * (t - st);
      long upTo = k == used - 1 ? j.size() : Math.min(j.size(), Math.round(ideal));
      long b = Math.max(0, upTo - assigned);
      starts.put(s, st);
      shares.put(s, b);
      assigned += b;
    }
    return new Scheduled(j.id(), t, starts, shares);
  }
}
