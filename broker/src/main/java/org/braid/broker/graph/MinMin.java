package org.braid.broker.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Batch planning for many files (paper 001, Algorithm 4): Min-Min on expected completion time.
 *
 * <p>Each job is one file with the predicted rate of each of its replica servers. A server serves
 * one job at a time at its rate; a job is co-allocated over its servers, each starting when it is
 * free, with portions sized so that all finish together (the earliest possible completion given the
 * servers' ready times). Repeatedly, the pending job with the minimum expected completion time is
 * scheduled and its servers become busy until then. Jobs with equal rates complete in the order of
 * their sizes, so each round looks only at the smallest pending job of each group of equal rates:
 * the cost is O(J G S log S) for J jobs of S servers in G groups (a dataset on a few servers has a
 * few groups), O(J^2 S log S) at worst. Stateless and thread-safe.
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
 * link's use has at most J (S + 1) steps, of which only those after the earliest time a server is
 * free are kept (no job can start before it), so the cost with a capacity is O(J G S (S + K)) for K
 * kept steps, O(J^3 S (S + log(J S))) at worst. Without a capacity the schedule is exactly the one
 * above (the same arithmetic).
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
    Set<String> ids = new HashSet<>();
    Set<String> servers = new HashSet<>();
    for (Job j : jobs) {
      if (!ids.add(j.id())) {
        throw new IllegalArgumentException("job ids must be unique");
      }
      j.rates()
          .forEach(
              (server, r) -> {
                if (r > 0 && Double.isFinite(r)) {
                  servers.add(server);
                }
              });
    }
    boolean capped = Double.isFinite(clientCapacity);
    ClientLink link = capped ? new ClientLink(clientCapacity) : null;
    List<ArrayDeque<Integer>> groups = groups(jobs);
    Map<String, Double> ready = new HashMap<>();
    List<Scheduled> out = new ArrayList<>(jobs.size());
    while (!groups.isEmpty()) {
      Scheduled best = null;
      ArrayDeque<Integer> bestGroup = null;
      int bestIndex = -1;
      for (ArrayDeque<Integer> g : groups) {
        int i = g.peekFirst();
        Job j = jobs.get(i);
        Scheduled s = capped ? link.plan(j, ready) : plan(j, ready);
        if (best == null
            || s.completion() < best.completion()
            || (s.completion() == best.completion() && i < bestIndex)) {
          best = s;
          bestGroup = g;
          bestIndex = i;
        }
      }
      if (capped) {
        link.take(jobs.get(bestIndex), best, ready);
      }
      out.add(best);
      bestGroup.pollFirst();
      if (bestGroup.isEmpty()) {
        groups.remove(bestGroup);
      }
      for (String server : best.shares().keySet()) {
        ready.put(server, best.completion());
      }
      if (capped) {
        double earliest = Double.POSITIVE_INFINITY;
        for (String server : servers) {
          earliest = Math.min(earliest, ready.getOrDefault(server, 0.0));
        }
        link.forgetBefore(earliest);
      }
    }
    return out;
  }

  /**
   * The jobs' indices grouped by equal rates, each group by size, then index. A job's completion
   * grows with its size whatever the servers' ready times and the client's link, so only the first
   * pending job of each group can be the next minimum: each round looks at one job per group, and
   * ties go to the job listed first, as if every pending job were looked at.
   */
  private static List<ArrayDeque<Integer>> groups(List<Job> jobs) {
    Map<Map<String, Double>, List<Integer>> byRates = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      byRates.computeIfAbsent(jobs.get(i).rates(), k -> new ArrayList<>()).add(i);
    }
    List<ArrayDeque<Integer>> groups = new ArrayList<>(byRates.size());
    for (List<Integer> g : byRates.values()) {
      g.sort(Comparator.<Integer>comparingLong(i -> jobs.get(i).size()).thenComparing(i -> i));
      groups.add(new ArrayDeque<>(g));
    }
    return groups;
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
