package org.braid.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.braid.broker.catalog.Replica;
import org.braid.broker.graph.MinMin;
import org.braid.broker.graph.PlatformGraph;
import org.braid.broker.graph.SharedBottlenecks;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord;

/**
 * Plans co-allocated downloads from a ranking (paper 003, section 4.3.2; paper 001): the matched
 * replicas with a forecast on a platform graph, one link per server ({@code host:port}) to this
 * client weighted by its forecast, through the declared and learned shared bottlenecks and the
 * client's access link; the co-allocation set reaching a fraction of the max-flow bound; Min-Min
 * for batches. Thread-safe.
 */
final class Planner {

  /** The client's vertex in the platform graph (a space cannot occur in a host name). */
  static final String CLIENT = " client";

  /** The client's access link's vertex, when its capacity is set. */
  static final String ACCESS = " access";

  /** The most recent journal flows that bottleneck learning looks at. */
  private static final int MAX_LEARN_FLOWS = 50_000;

  /**
   * A declared shared bottleneck.
   *
   * @param capacity bytes per second
   * @param hosts its lower-case {@code host} or {@code host:port} members
   */
  record Bottleneck(double capacity, Set<String> hosts) {
    Bottleneck {
      hosts = Set.copyOf(hosts);
    }
  }

  /**
   * How plans are made.
   *
   * @param bottlenecks declared bottlenecks in declaration order (a host in two goes to the first)
   * @param learn whether shared bottlenecks are learned from the journal
   * @param fraction the share of the max-flow bound the co-allocation set must reach
   * @param maxSources the most replicas in a plan
   * @param clientCapacity the client's access link in bytes per second, infinite for none
   */
  record Options(
      Map<String, Bottleneck> bottlenecks,
      boolean learn,
      double fraction,
      int maxSources,
      double clientCapacity) {}

  private final Options options;
  private final ClientHistory history;

  /** Shared bottlenecks learned from the journal version {@code learnedStamp} (guarded by this). */
  private Object learnedStamp;

  private List<SharedBottlenecks.Group> learnedGroups = List.of();

  Planner(Options options, ClientHistory history) {
    this.options = options;
    this.history = history;
  }

  /** The server of a replica as plans and bottlenecks name it: host:port, the scheme's default. */
  static String serverKey(Replica r) {
    int port = r.port() < 0 ? 0 : r.port();
    return r.host().toLowerCase(Locale.ROOT) + ":" + port;
  }

  /** The plan of a ranked request ({@link Broker#plan}). */
  Plan plan(Request request, List<RankedReplica> ranked) {
    List<RankedReplica> matched = ranked.stream().filter(RankedReplica::matched).toList();
    Map<String, RankedReplica> byServer = new LinkedHashMap<>();
    for (RankedReplica r : matched) {
      if (r.predictedBandwidth() > 0) {
        byServer.putIfAbsent(serverKey(r.replica()), r);
      }
    }
    List<Plan.Share> shares = new ArrayList<>();
    int max = options.maxSources();
    if (byServer.isEmpty()) {
      List<RankedReplica> first = matched.subList(0, Math.min(max, matched.size()));
      for (RankedReplica r : first) {
        shares.add(new Plan.Share(r.replica(), 0, 1.0 / first.size(), 0));
      }
      return new Plan(request.size(), withBytes(shares, request.size()), 0, 0, ranked);
    }
    PlatformGraph g = graph(byServer);
    List<String> candidates = new ArrayList<>(byServer.keySet());
    PlatformGraph.CoallocationSet set = g.coallocationSet(candidates, CLIENT, options.fraction());
    List<String> chosen = set.hosts().subList(0, Math.min(max, set.hosts().size()));
    PlatformGraph.Flow flow = g.maxFlow(chosen, CLIENT);
    double a = 0;
    for (String h : chosen) {
      a += flow.bySource().getOrDefault(h, 0.0);
    }
    for (String h : candidates) {
      double rate = flow.bySource().getOrDefault(h, 0.0);
      if (chosen.contains(h) && rate > 0) {
        shares.add(new Plan.Share(byServer.get(h).replica(), rate, rate / a, 0));
      }
    }
    return new Plan(request.size(), withBytes(shares, request.size()), set.bound(), a, ranked);
  }

  /**
   * Each share's bytes: within one byte of fraction * size, summing to size (cumulative rounding).
   */
  private static List<Plan.Share> withBytes(List<Plan.Share> shares, long size) {
    List<Plan.Share> out = new ArrayList<>();
    long given = 0;
    double cum = 0;
    for (int i = 0; i < shares.size(); i++) {
      Plan.Share s = shares.get(i);
      long b = -1;
      if (size >= 0) {
        cum += s.fraction();
        long upTo = i == shares.size() - 1 ? size : Math.min(size, Math.round(cum * size));
        b = Math.max(0, upTo - given);
        given += b;
      }
      out.add(new Plan.Share(s.replica(), s.predictedRate(), s.fraction(), b));
    }
    return out;
  }

  /**
   * The platform graph of these servers: one link each to the client, through shared bottlenecks,
   * and with a client capacity through the client's access link.
   */
  PlatformGraph graph(Map<String, RankedReplica> byServer) {
    PlatformGraph.Builder b = PlatformGraph.builder();
    boolean access = Double.isFinite(options.clientCapacity());
    String dest = access ? ACCESS : CLIENT;
    if (access) {
      b.link(ACCESS, CLIENT, options.clientCapacity());
    }
    byServer.forEach((k, r) -> b.link(k, dest, r.predictedBandwidth()));
    Set<String> grouped = new HashSet<>();
    for (Map.Entry<String, Bottleneck> d : options.bottlenecks().entrySet()) {
      List<String> members = new ArrayList<>();
      for (Map.Entry<String, RankedReplica> e : byServer.entrySet()) {
        String host = e.getValue().replica().host().toLowerCase(Locale.ROOT);
        Set<String> hosts = d.getValue().hosts();
        if ((hosts.contains(e.getKey()) || hosts.contains(host)) && grouped.add(e.getKey())) {
          members.add(e.getKey());
        }
      }
      if (!members.isEmpty()) {
        b.sharedBottleneck("declared:" + d.getKey(), dest, d.getValue().capacity(), members);
      }
    }
    if (options.learn()) {
      int n = 0;
      for (SharedBottlenecks.Group grp : learned()) {
        List<String> members = new ArrayList<>();
        for (String s : grp.servers()) {
          String key = s.toLowerCase(Locale.ROOT);
          if (byServer.containsKey(key) && !grouped.contains(key)) {
            members.add(key);
          }
        }
        if (members.size() >= 2) {
          grouped.addAll(members);
          b.sharedBottleneck("learned:" + (n++), dest, grp.capacity(), members);
        }
      }
    }
    return b.build();
  }

  /**
   * Shared bottlenecks learned from the journal's most recent flows, recomputed when it changes.
   */
  private synchronized List<SharedBottlenecks.Group> learned() {
    ClientHistory.View v = history.view();
    if (v.stamp() == null) {
      return List.of();
    }
    if (!v.stamp().equals(learnedStamp)) {
      List<TransferRecord> all = history.all();
      learnedGroups =
          SharedBottlenecks.learn(
              all.subList(Math.max(0, all.size() - MAX_LEARN_FLOWS), all.size()), 0.1);
      learnedStamp = v.stamp();
    }
    return learnedGroups;
  }

  /**
   * A batch of files planned each by {@code plan}, then ordered by Min-Min ({@link
   * Broker#planBatch}). Files whose replicas are on the same servers, in the same size class and
   * with the same expressions are planned once: a dataset of many files on a few servers costs a
   * few plans.
   */
  List<MinMin.Scheduled> planBatch(Map<String, Request> requests, Function<Request, Plan> plan) {
    List<MinMin.Job> jobs = new ArrayList<>();
    Map<List<Object>, Map<String, Double>> planned = new HashMap<>();
    for (Map.Entry<String, Request> e : requests.entrySet()) {
      Request r = e.getValue();
      if (r.size() <= 0) {
        throw new IllegalArgumentException(
            "batch file " + e.getKey() + ": size must be known and positive: " + r.size());
      }
      Map<String, Double> rates = planned.computeIfAbsent(batchKey(r), k -> rates(plan.apply(r)));
      if (rates.isEmpty()) {
        throw new IllegalArgumentException(
            "batch file " + e.getKey() + ": no matched replica has a forecast");
      }
      jobs.add(new MinMin.Job(e.getKey(), r.size(), rates));
    }
    return MinMin.schedule(jobs, options.clientCapacity());
  }

  /** What a file's plan depends on: its replicas' servers, size class and expressions. */
  private static List<Object> batchKey(Request r) {
    List<Object> key = new ArrayList<>();
    for (Replica x : r.replicas()) {
      key.add(serverKey(x));
    }
    key.add(SizeClass.of(r.size()));
    key.add(r.requirements());
    key.add(r.rank());
    return key;
  }

  /** The predicted rate of each server of a plan that has one. */
  private static Map<String, Double> rates(Plan p) {
    Map<String, Double> rates = new HashMap<>();
    for (Plan.Share s : p.shares()) {
      if (s.predictedRate() > 0) {
        rates.put(serverKey(s.replica()), s.predictedRate());
      }
    }
    return Map.copyOf(rates);
  }
}
