package org.braid.broker.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.PushRelabelMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Hosts and directed links weighted by forecast capacity (bytes per second, or any one unit), with
 * shared-bottleneck groups.
 *
 * <p>A shared bottleneck (paper 001, section 3.4) is a resource several links pass through, such as
 * a router or a site's uplink: the links from the group's hosts to one destination are routed
 * through an extra vertex whose single outgoing link has the bottleneck's capacity, so that their
 * flows together never exceed it.
 *
 * <p>Immutable and thread-safe: every query works on its own copy of the graph.
 */
public final class PlatformGraph {

  private static final String GROUP = "\u0000bottleneck:";
  private static final String SOURCE = "\u0000source";

  private static final String RELAY_IN = "\u0000in:";

  private final Graph<String, DefaultWeightedEdge> g;

  /**
   * Traversal capacity of relays (paper 000): what a host can forward from an input to an output
   * link.
   */
  private final Map<String, Double> relay;

  private PlatformGraph(Graph<String, DefaultWeightedEdge> g, Map<String, Double> relay) {
    this.g = g;
    this.relay = Map.copyOf(relay);
  }

  /** A builder for an empty graph. */
  public static Builder builder() {
    return new Builder();
  }

  /** The hosts (not the internal bottleneck vertices). */
  public Set<String> hosts() {
    Set<String> s = new LinkedHashSet<>();
    for (String v : g.vertexSet()) {
      if (!v.startsWith("\u0000")) {
        s.add(v);
      }
    }
    return Collections.unmodifiableSet(s);
  }

  /** The result of a max-flow query. */
  public record Flow(double value, Map<String, Double> bySource) {
    /** Copies the map. */
    public Flow {
      bySource = Collections.unmodifiableMap(new LinkedHashMap<>(bySource));
    }
  }

  /**
   * The max-flow bound on the aggregate bandwidth from a set of sources to a sink: no schedule can
   * move data faster. Push-relabel (JGraphT {@link PushRelabelMFImpl}), O(V^3).
   *
   * @return the value and each source's share in one maximum flow (shares of sources behind one
   *     saturated bottleneck are one of several optimal splits)
   * @throws IllegalArgumentException if the sink or a source is not in the graph, or a source is
   *     the sink
   */
  public Flow maxFlow(Collection<String> sources, String sink) {
    Objects.requireNonNull(sources, "sources");
    require(sink);
    Graph<String, DefaultWeightedEdge> c = copy();
    for (Map.Entry<String, Double> r : relay.entrySet()) {
      if (!r.getKey().equals(sink)) {
        splitRelay(c, r.getKey(), r.getValue());
      }
    }
    c.addVertex(SOURCE);
    double big = 1;
    for (DefaultWeightedEdge e : g.edgeSet()) {
      big += g.getEdgeWeight(e);
    }
    Map<String, DefaultWeightedEdge> in = new LinkedHashMap<>();
    for (String s : new LinkedHashSet<>(sources)) {
      require(s);
      if (s.equals(sink)) {
        throw new IllegalArgumentException("a source is the sink: " + s);
      }
      DefaultWeightedEdge e = c.addEdge(SOURCE, s);
      c.setEdgeWeight(e, big);
      in.put(s, e);
    }
    if (in.isEmpty()) {
      return new Flow(0, Map.of());
    }
    PushRelabelMFImpl<String, DefaultWeightedEdge> mf = new PushRelabelMFImpl<>(c);
    double v = mf.getMaximumFlowValue(SOURCE, sink);
    Map<DefaultWeightedEdge, Double> flows = mf.getFlowMap();
    Map<String, Double> by = new LinkedHashMap<>();
    in.forEach((s, e) -> by.put(s, flows.getOrDefault(e, 0.0)));
    return new Flow(v, by);
  }

  /** A path and its bottleneck: the smallest capacity along it. */
  public record WidestPath(List<String> hosts, double bottleneck) {
    /** Copies the list. */
    public WidestPath {
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * The widest path (largest bottleneck capacity) from one host to another, through any relays:
   * paper 000's File Mover path computation, a Dijkstra variant that maximizes the minimum over the
   * links and the traversal capacities of the relays on the path (paper 001, Algorithm 2, without
   * its hop limit, uses the same bottleneck metric). O(E log V). Ties keep the path with fewer
   * hops.
   *
   * @return the path (hosts in order, bottleneck vertices omitted) or null when {@code to} cannot
   *     be reached
   * @throws IllegalArgumentException if a host is not in the graph
   */
  public WidestPath widestPath(String from, String to) {
    require(from);
    require(to);
    if (from.equals(to)) {
      return new WidestPath(List.of(from), Double.POSITIVE_INFINITY);
    }
    Map<String, Double> width = new HashMap<>();
    Map<String, Integer> hops = new HashMap<>();
    Map<String, String> pred = new HashMap<>();
    record Item(String v, double w, int hops) {}
    PriorityQueue<Item> q =
        new PriorityQueue<>(
            (a, b) -> a.w != b.w ? Double.compare(b.w, a.w) : Integer.compare(a.hops, b.hops));
    width.put(from, Double.POSITIVE_INFINITY);
    hops.put(from, 0);
    q.add(new Item(from, Double.POSITIVE_INFINITY, 0));
    Set<String> done = new LinkedHashSet<>();
    while (!q.isEmpty()) {
      Item it = q.poll();
      if (!done.add(it.v)) {
        continue;
      }
      if (it.v.equals(to)) {
        break;
      }
      double through =
          it.v.equals(from)
              ? it.w
              : Math.min(it.w, relay.getOrDefault(it.v, Double.POSITIVE_INFINITY));
      for (DefaultWeightedEdge e : g.outgoingEdgesOf(it.v)) {
        String n = g.getEdgeTarget(e);
        double w = Math.min(through, g.getEdgeWeight(e));
        if (w <= 0 || done.contains(n)) {
          continue;
        }
        double old = width.getOrDefault(n, 0.0);
        if (w > old || (w == old && it.hops + 1 < hops.getOrDefault(n, Integer.MAX_VALUE))) {
          width.put(n, w);
          hops.put(n, it.hops + 1);
          pred.put(n, it.v);
          q.add(new Item(n, w, it.hops + 1));
        }
      }
    }
    if (!width.containsKey(to)) {
      return null;
    }
    List<String> path = new ArrayList<>();
    for (String v = to; v != null; v = pred.get(v)) {
      if (!v.startsWith("\u0000")) {
        path.add(v);
      }
    }
    Collections.reverse(path);
    return new WidestPath(path, width.get(to));
  }

  /** The replicas chosen for a co-allocated download and what they reach together. */
  public record CoallocationSet(List<String> hosts, double flow, double bound) {
    /** Copies the list. */
    public CoallocationSet {
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * The co-allocation set: few replicas that together reach {@code fraction} of the max-flow bound
   * of all candidates. Greedy: each step adds the candidate that raises the max flow most (ties:
   * the earlier candidate), so a replica behind an already saturated shared bottleneck is never
   * added. Cost: O(n^2) max-flow computations for n candidates.
   *
   * @param candidates hosts in preference order
   * @param fraction the share of the bound to reach, in (0, 1] (Braid uses 0.95)
   * @throws IllegalArgumentException if fraction is outside (0, 1] or a host is not in the graph
   */
  public CoallocationSet coallocationSet(List<String> candidates, String sink, double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in (0, 1]: " + fraction);
    }
    double bound = maxFlow(candidates, sink).value();
    List<String> chosen = new ArrayList<>();
    List<String> left = new ArrayList<>(new LinkedHashSet<>(candidates));
    double flow = 0;
    while (flow < fraction * bound - 1e-9 * bound && !left.isEmpty()) {
      String best = null;
      double bestFlow = flow;
      for (String c : left) {
        List<String> trial = new ArrayList<>(chosen);
        trial.add(c);
        double f = maxFlow(trial, sink).value();
        if (f > bestFlow + 1e-12 * Math.max(1, bound)) {
          best = c;
          bestFlow = f;
        }
      }
      if (best == null) {
        break;
      }
      chosen.add(best);
      left.remove(best);
      flow = bestFlow;
    }
    return new CoallocationSet(chosen, flow, bound);
  }

  /** Routes the links into a relay through an extra vertex whose link to it has its capacity. */
  private static void splitRelay(Graph<String, DefaultWeightedEdge> c, String h, double cap) {
    String in = RELAY_IN + h;
    c.addVertex(in);
    for (DefaultWeightedEdge e : new ArrayList<>(c.incomingEdgesOf(h))) {
      String from = c.getEdgeSource(e);
      double w = c.getEdgeWeight(e);
      c.removeEdge(e);
      DefaultWeightedEdge n = c.addEdge(from, in);
      c.setEdgeWeight(n, w);
    }
    DefaultWeightedEdge t = c.addEdge(in, h);
    c.setEdgeWeight(t, cap);
  }

  private void require(String host) {
    Objects.requireNonNull(host, "host");
    if (!g.containsVertex(host) || host.startsWith("\u0000")) {
      throw new IllegalArgumentException("host not in the platform graph: " + host);
    }
  }

  private Graph<String, DefaultWeightedEdge> copy() {
    Graph<String, DefaultWeightedEdge> c =
        new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
    g.vertexSet().forEach(c::addVertex);
    for (DefaultWeightedEdge e : g.edgeSet()) {
      DefaultWeightedEdge n = c.addEdge(g.getEdgeSource(e), g.getEdgeTarget(e));
      c.setEdgeWeight(n, g.getEdgeWeight(e));
    }
    return c;
  }

  /** Builds a {@link PlatformGraph}. Not thread-safe. */
  public static final class Builder {
    private final Map<List<String>, Double> links = new LinkedHashMap<>();
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final Map<String, Double> relay = new LinkedHashMap<>();

    private record Group(String destination, double capacity, Set<String> sources) {}

    private Builder() {}

    /**
     * A directed link with its forecast capacity; a second call for the same pair replaces it.
     *
     * @throws IllegalArgumentException if a host name is empty or starts with a NUL, from equals
     *     to, or the capacity is negative, NaN or infinite
     */
    public Builder link(String from, String to, double capacity) {
      name(from);
      name(to);
      if (from.equals(to)) {
        throw new IllegalArgumentException("a link needs two different hosts: " + from);
      }
      capacity(capacity, from + " -> " + to);
      links.put(List.of(from, to), capacity);
      return this;
    }

    /**
     * The traversal capacity of a relay host (paper 000): how fast it forwards data from an input
     * link to an output link. It bounds paths and flows through the host, not to or from it.
     *
     * @throws IllegalArgumentException if the capacity is negative, NaN or infinite
     */
    public Builder relayCapacity(String host, double capacity) {
      name(host);
      capacity(capacity, "relay " + host);
      relay.put(host, capacity);
      return this;
    }

    /** Links in both directions with the same capacity. */
    public Builder biLink(String a, String b, double capacity) {
      return link(a, b, capacity).link(b, a, capacity);
    }

    /**
     * A shared bottleneck: the links from {@code sources} to {@code destination} together carry at
     * most {@code capacity}. A host can belong to one group per destination.
     *
     * @throws IllegalArgumentException if the name is reused, the capacity is not finite and
     *     non-negative, or a source is already in another group towards that destination
     */
    public Builder sharedBottleneck(
        String name, String destination, double capacity, Collection<String> sources) {
      Objects.requireNonNull(name, "name");
      name(destination);
      capacity(capacity, "bottleneck " + name);
      if (groups.containsKey(name)) {
        throw new IllegalArgumentException("bottleneck group defined twice: " + name);
      }
      Set<String> s = new LinkedHashSet<>();
      for (String h : sources) {
        name(h);
        for (Group other : groups.values()) {
          if (other.destination.equals(destination) && other.sources.contains(h)) {
            throw new IllegalArgumentException(
                "host " + h + " is in two bottleneck groups towards " + destination);
          }
        }
        s.add(h);
      }
      groups.put(name, new Group(destination, capacity, s));
      return this;
    }

    /** The graph. */
    public PlatformGraph build() {
      Graph<String, DefaultWeightedEdge> g =
          new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
      Map<List<String>, String> via = new HashMap<>();
      for (Map.Entry<String, Group> e : groups.entrySet()) {
        String v = GROUP + e.getKey();
        g.addVertex(v);
        g.addVertex(e.getValue().destination);
        DefaultWeightedEdge out = g.addEdge(v, e.getValue().destination);
        g.setEdgeWeight(out, e.getValue().capacity);
        for (String s : e.getValue().sources) {
          via.put(List.of(s, e.getValue().destination), v);
        }
      }
      for (Map.Entry<List<String>, Double> l : links.entrySet()) {
        String from = l.getKey().get(0);
        String to = l.getKey().get(1);
        g.addVertex(from);
        g.addVertex(to);
        String target = via.getOrDefault(l.getKey(), to);
        DefaultWeightedEdge e = g.addEdge(from, target);
        g.setEdgeWeight(e, l.getValue());
      }
      relay.keySet().forEach(g::addVertex);
      return new PlatformGraph(g, relay);
    }

    private static void name(String h) {
      Objects.requireNonNull(h, "host");
      if (h.isEmpty() || h.startsWith("\u0000")) {
        throw new IllegalArgumentException("bad host name: '" + h + "'");
      }
    }

    private static void capacity(double c, String what) {
      if (!(c >= 0) || Double.isInfinite(c)) {
        throw new IllegalArgumentException(
            "capacity of " + what + " must be finite and not negative: " + c);
      }
    }
  }
}
