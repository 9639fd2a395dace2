package org.braid.broker.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.braid.infoprovider.TransferRecord;

/**
 * Learns shared bottlenecks from transfer history, as paper 001 (section 3.4) measures them: two
 * servers share a bottleneck when flows from both that ran at the same time added up to no more
 * than the faster server delivers alone.
 *
 * <p>Per server, the solo rate is the median bandwidth of its flows that overlapped no flow from
 * another server. For each pair of servers with flows that overlapped in time (by at least half of
 * the shorter one), the concurrent sum is the median of the summed bandwidths of the overlapping
 * pairs. If that sum is at most (1 + tolerance) times the larger solo rate, and below the sum of
 * the two solo rates by more than the tolerance, the pair shares a bottleneck whose capacity is the
 * larger solo rate. Pairs are joined transitively into groups. Cost: O(n log n) plus the number of
 * overlapping pairs. Stateless and thread-safe.
 */
public final class SharedBottlenecks {

  /** A group of servers behind one bottleneck, and its capacity (the largest solo rate). */
  public record Group(Set<String> servers, double capacity) {
    /** Copies the set. */
    public Group {
      servers = Set.copyOf(servers);
    }
  }

  private SharedBottlenecks() {}

  /**
   * The groups the history shows.
   *
   * @param flows successful reads, any order (servers as the records name them)
   * @param tolerance relative measurement slack, e.g. 0.1
   * @throws IllegalArgumentException if tolerance is outside [0, 1)
   */
  public static List<Group> learn(List<TransferRecord> flows, double tolerance) {
    if (!(tolerance >= 0 && tolerance < 1)) {
      throw new IllegalArgumentException("tolerance must be in [0, 1): " + tolerance);
    }
    List<TransferRecord> reads = new ArrayList<>();
    for (TransferRecord r : flows) {
      if (r.succeeded() && r.operation() == TransferRecord.Operation.READ && r.size() > 0) {
        reads.add(r);
      }
    }
    // Sweep in start order: only pairs that overlap in time are compared, O(n log n + overlaps).
    reads.sort(java.util.Comparator.comparing(TransferRecord::start));
    boolean[] alone = new boolean[reads.size()];
    Arrays.fill(alone, true);
    Map<List<String>, List<Double>> concurrent = new HashMap<>();
    for (int i = 0; i < reads.size(); i++) {
      TransferRecord a = reads.get(i);
      for (int j = i + 1; j < reads.size() && reads.get(j).start().isBefore(a.end()); j++) {
        TransferRecord b = reads.get(j);
        if (a.server().equals(b.server()) || !overlap(a, b, 0)) {
          continue;
        }
        alone[i] = false;
        alone[j] = false;
        if (overlap(a, b, 0.5)) {
          List<String> key =
              a.server().compareTo(b.server()) < 0
                  ? List.of(a.server(), b.server())
                  : List.of(b.server(), a.server());
          concurrent
              .computeIfAbsent(key, k -> new ArrayList<>())
              .add(a.bandwidth() + b.bandwidth());
        }
      }
    }
    Map<String, List<Double>> solo = new HashMap<>();
    for (int i = 0; i < reads.size(); i++) {
      if (alone[i]) {
        solo.computeIfAbsent(reads.get(i).server(), k -> new ArrayList<>())
            .add(reads.get(i).bandwidth());
      }
    }
    Map<String, String> parent = new LinkedHashMap<>();
    Map<String, Double> capacity = new HashMap<>();
    for (Map.Entry<List<String>, List<Double>> e : concurrent.entrySet()) {
      String a = e.getKey().get(0);
      String b = e.getKey().get(1);
      if (!solo.containsKey(a) || !solo.containsKey(b)) {
        continue;
      }
      double sa = median(solo.get(a));
      double sb = median(solo.get(b));
      double sum = median(e.getValue());
      double larger = Math.max(sa, sb);
      if (sum <= (1 + tolerance) * larger && sum < (1 - tolerance) * (sa + sb)) {
        union(parent, a, b);
        capacity.merge(a, larger, Math::max);
        capacity.merge(b, larger, Math::max);
      }
    }
    Map<String, Set<String>> groups = new LinkedHashMap<>();
    Map<String, Double> caps = new HashMap<>();
    for (String s : parent.keySet()) {
      String root = find(parent, s);
      groups.computeIfAbsent(root, k -> new TreeSet<>()).add(s);
      caps.merge(root, capacity.getOrDefault(s, 0.0), Math::max);
    }
    List<Group> out = new ArrayList<>();
    groups.forEach((root, servers) -> out.add(new Group(servers, caps.get(root))));
    return out;
  }

  private static boolean overlap(TransferRecord a, TransferRecord b, double minShare) {
    long s = Math.max(a.start().toEpochMilli(), b.start().toEpochMilli());
    long e = Math.min(a.end().toEpochMilli(), b.end().toEpochMilli());
    if (e <= s) {
      return false;
    }
    long shorter = Math.min(a.duration().toMillis(), b.duration().toMillis());
    return e - s >= minShare * shorter;
  }

  static double median(List<Double> v) {
    double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }

  private static String find(Map<String, String> parent, String x) {
    parent.putIfAbsent(x, x);
    while (!parent.get(x).equals(x)) {
      x = parent.get(x);
    }
    return x;
  }

  private static void union(Map<String, String> parent, String a, String b) {
    String ra = find(parent, a);
    String rb = find(parent, b);
    if (!ra.equals(rb)) {
      parent.put(rb, ra);
    }
  }
}
