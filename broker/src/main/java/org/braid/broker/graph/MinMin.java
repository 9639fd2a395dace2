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
 * free, with portions sized so that all finish together (the earliest possible completion given the
 * servers' ready times). Repeatedly, the pending job with the minimum expected completion time is
 * scheduled and its servers become busy until then. Cost: O(J^2 S log S) for J jobs of S servers.
 * Stateless and thread-safe.
 *
 * <p><b>The client's link.</b> Every transfer ends at the one client, whose access link carries at
 * most {@code clientCapacity} bytes per second in all. With a capacity, the link is given to jobs
 * in the order Min-Min schedules them: at each instant a job receives the lesser of its free
 * servers' summed rates and the capacity that the jobs scheduled before it leave unused then (so
 * the scheduled jobs together never exceed the capacity), its servers sharing that rate in
 * proportion to their own rates; it completes when it has received its size, and its servers are
 * busy until then. A job's rate is therefore piecewise constant, changing only where a server
 * becomes free or an earlier job's rate changes. A job scheduled earlier is never slowed down by a
 * later one (no re-planning), so the makespan is that of this greedy order, not the optimum. The
 * link's use has at most J (S + 1) steps, so the cost with a capacity is O(J^3 S (S + log(J S))).
 * Without a capacity the schedule is exactly the one above (the same arithmetic).
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
     * @throws IllegalArgumentException if the size is not positive or no rate is positive and
     *     finite
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
  public record Scheduled(
      String id, double completion, Map<String, Double> starts, Map<String, Long> shares) {
    /** Copies the maps. */
    public Scheduled {
      starts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(starts));
      shares = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shares));
    }
  }

  /**
   * The jobs in the order Min-Min schedules them, without a limit on the client's link.
   *
   * @throws NullPointerException if the list or a job is null
   * @throws IllegalArgumentException if two jobs have the same id
   */
  public static List<Scheduled> schedule(List<Job> jobs) {
    return schedule(jobs, Double.POSITIVE_INFINITY);
  }

  /**
   * The jobs in the order Min-Min schedules them, all sharing a client link of {@code
   * clientCapacity} bytes per second (see the class comment for the model).
   *
   * @param clientCapacity bytes per second, positive; {@code Double.POSITIVE_INFINITY} for no limit
   * @throws NullPointerException if the list or a job is null
   * @throws IllegalArgumentException if two jobs have the same id, or the capacity is not positive
   */
  public static List<Scheduled> schedule(List<Job> jobs, double clientCapacity) {
    if (!(clientCapacity > 0)) {
      throw new IllegalArgumentException("client capacity must be positive: " + clientCapacity);
    }
    List<Job> pending = new ArrayList<>(jobs);
    if (pending.stream().map(Job::id).distinct().count() != pending.size()) {
      throw new IllegalArgumentException("job ids must be unique");
    }
    boolean capped = Double.isFinite(clientCapacity);
    ClientLink link = capped ? new ClientLink(clientCapacity) : null;
    Map<String, Double> ready = new HashMap<>();
    List<Scheduled> out = new ArrayList<>();
    while (!pending.isEmpty()) {
      Scheduled best = null;
      Job bestJob = null;
      for (Job j : pending) {
        Scheduled s = capped ? link.plan(j, ready) : plan(j, ready);
        if (best == null || s.completion() < best.completion()) {
          best = s;
          bestJob = j;
        }
      }
      if (capped) {
        link.take(bestJob, best, ready);
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
    List<String> servers = servers(j, ready);
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
    Map<String, Double> bytes = new LinkedHashMap<>();
    for (int k = 0; k < used; k++) {
      String s = servers.get(k);
      double st = ready.getOrDefault(s, 0.0);
      starts.put(s, st);
      bytes.put(s, j.rates().get(s) * (t - st));
    }
    return new Scheduled(j.id(), t, starts, rounded(bytes, j.size()));
  }

  /** The job's servers with a usable rate, by ready time, then name. */
  static List<String> servers(Job j, Map<String, Double> ready) {
    List<String> servers = new ArrayList<>();
    j.rates()
        .forEach(
            (s, r) -> {
              if (r > 0 && Double.isFinite(r)) {
                servers.add(s);
              }
            });
    servers.sort(
        Comparator.<String>comparingDouble(s -> ready.getOrDefault(s, 0.0)).thenComparing(s -> s));
    return servers;
  }

  /**
   * Cumulative rounding of ideal byte counts (in map order): every share is within one byte of its
   * ideal, and they sum to the size.
   */
  static Map<String, Long> rounded(Map<String, Double> ideal, long size) {
    Map<String, Long> shares = new LinkedHashMap<>();
    long assigned = 0;
    double cum = 0;
    int k = 0;
    for (Map.Entry<String, Double> e : ideal.entrySet()) {
      cum += e.getValue();
      long upTo = ++k == ideal.size() ? size : Math.min(size, Math.round(cum));
      long b = Math.max(0, upTo - assigned);
      shares.put(e.getKey(), b);
      assigned += b;
    }
    return shares;
  }
}
