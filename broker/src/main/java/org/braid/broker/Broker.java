package org.braid.broker;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.braid.broker.catalog.Replica;
import org.braid.broker.graph.MinMin;
import org.braid.broker.graph.PlatformGraph;
import org.braid.broker.graph.SharedBottlenecks;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.wire.ProviderApi;
import org.braid.matchmaking.ClassAd;
import org.braid.matchmaking.Matchmaker;
import org.braid.predictors.Forecast;
import org.braid.predictors.Forecaster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica broker (paper 003, sections 2 and 4): finds each replica's information provider,
 * fetches its published performance, builds a storage ad per replica with a bandwidth forecast for
 * the request's file size, matches and ranks the ads against the request with the ClassAd {@link
 * Matchmaker}, and plans co-allocated downloads on a platform graph.
 *
 * <pre>
 * try (Broker broker = Broker.builder().journal(journalPath).build()) {
 *   List&lt;RankedReplica&gt; ranked = broker.select(
 *       Request.builder(replicas).size(2_000_000_000L)
 *           .requirements("other.AvgRDBandwidth &gt; 5M/sec").build());
 * }
 * </pre>
 *
 * <p>Forecasts come, in this order, from this client's own journal (it predicts best), the
 * provider's forecast for the size class, or the provider's average for the size class. A provider
 * that is silent, slow or answers garbage costs at most the timeout and leaves its replica rankable
 * with undefined attributes and a {@link RankedReplica#discovery()} note.
 *
 * <p>Thread-safe. Close it to release the HTTP client.
 */
public final class Broker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
  private static final AtomicLong IDS = new AtomicLong();

  /** The client's vertex in the platform graph (a space cannot occur in a host name). */
  static final String CLIENT = " client";

  /** The client's access link's vertex, when its capacity is set. */
  static final String ACCESS = " access";

  private final Discovery discovery;
  private final ClientHistory history;
  private final InstantSource clock;
  private final Map<String, URI> providers;
  private final boolean conventional;
  private final int providerPort;
  private final String clientPeer;
  private final Map<String, Declared> bottlenecks;
  private final boolean learnBottlenecks;
  private final double fraction;
  private final int maxSources;
  private final double clientCapacity;

  private record Declared(double capacity, Set<String> hosts) {}

  /** Storage ads built from cached provider answers, reused while the answer is the same object. */
  private static final int MAX_CACHED_ADS = 20_000;

  /** The most recent journal flows that bottleneck learning looks at. */
  private static final int MAX_LEARN_FLOWS = 50_000;

  /** Shared bottlenecks learned from the journal version {@code learnedStamp} (guarded by this). */
  private Object learnedStamp;

  private List<SharedBottlenecks.Group> learnedGroups = List.of();

  private record AdKey(Replica replica, SizeClass sizeClass) {}

  private record CachedAd(
      ProviderAnswer answer,
      Object historyStamp,
      ClassAd ad,
      Forecast forecast,
      String source,
      String note) {}

  private final Map<AdKey, CachedAd> adCache = new java.util.concurrent.ConcurrentHashMap<>();

  private Broker(Builder b) {
    this.clock = b.clock;
    this.discovery =
        new Discovery(
            b.connectTimeout,
            b.timeout,
            b.ttl,
            b.failureTtl,
            b.maxResponseBytes,
            b.clock,
            b.loads,
            b.clientPeer);
    this.history = new ClientHistory(b.journal, b.historyStore, b.forecaster, b.clock);
    this.providers = Map.copyOf(b.providers);
    this.conventional = b.conventional;
    this.providerPort = b.providerPort;
    this.clientPeer = b.clientPeer;
    // in declaration order: a host in two bottlenecks goes to the first (Map.copyOf would shuffle)
    this.bottlenecks = Collections.unmodifiableMap(new LinkedHashMap<>(b.bottlenecks));
    this.learnBottlenecks = b.learnBottlenecks;
    this.fraction = b.fraction;
    this.maxSources = b.maxSources;
    this.clientCapacity = b.clientCapacity;
  }

  /** A builder with the defaults stated on each option. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The information provider URL the broker queries for a replica: the replica's own (from the
   * catalog), else one configured for its {@code host:port} or host, else the conventional {@code
   * http://HOST:8790/v1/ads}; null when there is none (a local file, or conventional URLs off).
   */
  public URI providerFor(Replica r) {
    Objects.requireNonNull(r, "replica");
    URI u = r.provider();
    if (u == null) {
      u = providers.get(ClientHistory.serverKey(r));
    }
    if (u == null) {
      u = providers.get(r.host().toLowerCase(Locale.ROOT));
    }
    if (u == null && conventional && r.uri().getHost() != null) {
      u =
          URI.create(
              "http://" + hostForUri(r.uri().getHost()) + ":" + providerPort + ProviderApi.ADS);
    }
    if (u != null
        && (u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/"))) {
      u = u.resolve(ProviderApi.ADS);
    }
    return u;
  }

  private static String hostForUri(String host) {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /**
   * Ranks the request's replicas: discovers their providers concurrently, builds their ads and
   * matches them against the request.
   *
   * @return matched replicas best first (by rank; ties keep the request's order), then rejected
   *     ones in the request's order, each with its reason
   * @throws NullPointerException if the request is null
   */
  public List<RankedReplica> select(Request request) {
    Objects.requireNonNull(request, "request");
    long id = IDS.incrementAndGet();
    List<URI> endpoints = new ArrayList<>();
    for (Replica r : request.replicas()) {
      URI u = providerFor(r);
      endpoints.add(u);
    }
    Map<URI, ProviderAnswer> answers =
        discovery.fetch(
            endpoints.stream()
                .filter(Objects::nonNull)
                .collect(Collectors.toCollection(LinkedHashSet::new)));
    List<ProviderAnswer> perReplica = new ArrayList<>();
    for (URI u : endpoints) {
      perReplica.add(u == null ? null : answers.get(u));
    }
    List<RankedReplica> out = rank(request, perReplica);
    long ok = answers.values().stream().filter(ProviderAnswer::ok).count();
    LOG.debug(
        "select r{}: {} replicas, {} of {} providers answered, {} matched",
        id,
        out.size(),
        ok,
        answers.size(),
        out.stream().filter(RankedReplica::matched).count());
    return out;
  }

  /**
   * Ranks with given provider answers (one per replica, null for none): the part after discovery.
   */
  List<RankedReplica> rank(Request request, List<ProviderAnswer> answers) {
    SizeClass sc = SizeClass.of(Math.max(0, request.size()));
    Instant now = clock.instant();
    List<Replica> reps = request.replicas();
    List<ClassAd> ads = new ArrayList<>(reps.size());
    List<Forecast> forecasts = new ArrayList<>(reps.size());
    List<String> sources = new ArrayList<>(reps.size());
    List<String> notes = new ArrayList<>(reps.size());
    ClientHistory.View hv = history.view();
    if (adCache.size() > MAX_CACHED_ADS) {
      adCache.clear();
    }
    for (int i = 0; i < reps.size(); i++) {
      Replica r = reps.get(i);
      ProviderAnswer a = answers.get(i);
      AdKey key = new AdKey(r, sc);
      CachedAd c = adCache.get(key);
      if (c != null
          && c.answer() == a
          && Objects.equals(c.historyStamp(), hv.stamp())
          && hv.stamp() == null) {
        // Without history the ad depends only on the provider's (cached) answer and the size.
        ads.add(c.ad());
        forecasts.add(c.forecast());
        sources.add(c.source());
        notes.add(c.note());
        continue;
      }
      Map<String, Object> provAd = a != null && a.ok() ? AdBuilder.pick(a.ads(), clientPeer) : null;
      Forecast f = history.forecast(hv, r, request.size(), now);
      String source = "history";
      if (f == null) {
        f = AdBuilder.providerForecast(provAd, sc);
        source = f == null ? "none" : f.scored() > 0 ? "provider" : "provider-average";
      }
      if (f == null) {
        f = Forecast.insufficient("none", 0);
      }
      String note = null;
      if (a == null) {
        note = "no information provider known for " + r.host();
      } else if (!a.ok()) {
        note = "provider " + a.endpoint() + ": " + a.error();
      } else if (provAd == null) {
        note = "provider " + a.endpoint() + " published no ads";
      }
      ClassAd ad = AdBuilder.build(r, a, provAd, f, source, ClientHistory.count(hv, r));
      ads.add(ad);
      forecasts.add(f);
      sources.add(source);
      notes.add(note);
      adCache.put(key, new CachedAd(a, hv.stamp(), ad, f, source, note));
    }
    ClassAd requestAd =
        ClassAd.builder()
            .set(Matchmaker.REQUIREMENTS, request.requirements())
            .set(Matchmaker.RANK, request.rank())
            .set("FileSize", request.size())
            .set("SizeClass", sc.label())
            .build();
    Matchmaker.Ranking ranking = Matchmaker.builder(requestAd).paperAliases(true).build().rank(ads);
    List<RankedReplica> out = new ArrayList<>(reps.size());
    for (Matchmaker.Match m : ranking.matches()) {
      int k = m.index();
      double rank = Double.isFinite(m.rank()) ? m.rank() : 0;
      out.add(
          new RankedReplica(
              reps.get(k),
              true,
              rank,
              forecasts.get(k),
              sources.get(k),
              ads.get(k),
              null,
              notes.get(k)));
    }
    for (Matchmaker.Rejection rj : ranking.rejections()) {
      int k = rj.index();
      String reason =
          rj.reasons().isEmpty()
              ? "requirements not met"
              : rj.reasons().stream()
                  .map(Matchmaker.FailedClause::explain)
                  .collect(Collectors.joining("; "));
      out.add(
          new RankedReplica(
              reps.get(k),
              false,
              0,
              forecasts.get(k),
              sources.get(k),
              ads.get(k),
              reason,
              notes.get(k)));
    }
    return out;
  }

  /**
   * Plans a co-allocated download: ranks the replicas ({@link #select}), puts the matched ones with
   * a forecast on a platform graph (one link per server to this client, weighted by its forecast,
   * through the declared and learned shared bottlenecks and, with a {@link Builder#clientCapacity
   * client capacity}, through the client's access link), computes the max-flow bound, and chooses
   * the fewest replicas that reach the co-allocation fraction of it (default 95%), at most {@code
   * maxSources}. Without any forecast, the first {@code maxSources} matched replicas get equal
   * shares.
   *
   * @throws NullPointerException if the request is null
   */
  public Plan plan(Request request) {
    return plan(request, select(request));
  }

  Plan plan(Request request, List<RankedReplica> ranked) {
    List<RankedReplica> matched = ranked.stream().filter(RankedReplica::matched).toList();
    Map<String, RankedReplica> byServer = new LinkedHashMap<>();
    for (RankedReplica r : matched) {
      if (r.predictedBandwidth() > 0) {
        byServer.putIfAbsent(ClientHistory.serverKey(r.replica()), r);
      }
    }
    List<Plan.Share> shares = new ArrayList<>();
    if (byServer.isEmpty()) {
      List<RankedReplica> first = matched.subList(0, Math.min(maxSources, matched.size()));
      for (int i = 0; i < first.size(); i++) {
        shares.add(new Plan.Share(first.get(i).replica(), 0, 1.0 / first.size(), 0));
      }
      return new Plan(request.size(), withBytes(shares, request.size()), 0, 0, ranked);
    }
    PlatformGraph g = graph(byServer);
    List<String> candidates = new ArrayList<>(byServer.keySet());
    PlatformGraph.CoallocationSet set = g.coallocationSet(candidates, CLIENT, fraction);
    List<String> chosen = set.hosts().subList(0, Math.min(maxSources, set.hosts().size()));
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

  private static List<Plan.Share> withBytes(List<Plan.Share> shares, long size) {
    List<Plan.Share> out = new ArrayList<>();
    // Cumulative rounding: each share within one byte of fraction * size, summing to size.
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
    boolean access = Double.isFinite(clientCapacity);
    String dest = access ? ACCESS : CLIENT;
    if (access) {
      b.link(ACCESS, CLIENT, clientCapacity);
    }
    byServer.forEach((k, r) -> b.link(k, dest, r.predictedBandwidth()));
    Set<String> grouped = new java.util.HashSet<>();
    for (Map.Entry<String, Declared> d : bottlenecks.entrySet()) {
      List<String> members = new ArrayList<>();
      for (Map.Entry<String, RankedReplica> e : byServer.entrySet()) {
        String host = e.getValue().replica().host().toLowerCase(Locale.ROOT);
        if ((d.getValue().hosts().contains(e.getKey()) || d.getValue().hosts().contains(host))
            && grouped.add(e.getKey())) {
          members.add(e.getKey());
        }
      }
      if (!members.isEmpty()) {
        b.sharedBottleneck("declared:" + d.getKey(), dest, d.getValue().capacity(), members);
      }
    }
    if (learnBottlenecks) {
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
      List<org.braid.infoprovider.TransferRecord> all = history.all();
      learnedGroups =
          SharedBottlenecks.learn(
              all.subList(Math.max(0, all.size() - MAX_LEARN_FLOWS), all.size()), 0.1);
      learnedStamp = v.stamp();
    }
    return learnedGroups;
  }

  /**
   * Plans a batch of files (paper 001, Algorithm 4): each file is planned as by {@link #plan}, then
   * Min-Min orders them by expected completion time, a server serving one file at a time and, with
   * a {@link Builder#clientCapacity client capacity}, all files together within it ({@link
   * MinMin#schedule(List, double)} states the model).
   *
   * @param requests the files by id, each with a known size
   * @return the files in scheduling order, with per-server start times and shares
   * @throws IllegalArgumentException if a request's size is unknown or no replica of it has a
   *     forecast (naming the id)
   */
  public List<MinMin.Scheduled> planBatch(Map<String, Request> requests) {
    List<MinMin.Job> jobs = new ArrayList<>();
    for (Map.Entry<String, Request> e : requests.entrySet()) {
      Request r = e.getValue();
      if (r.size() <= 0) {
        throw new IllegalArgumentException(
            "batch file " + e.getKey() + ": size must be known and positive: " + r.size());
      }
      Plan p = plan(r);
      Map<String, Double> rates = new HashMap<>();
      for (Plan.Share s : p.shares()) {
        if (s.predictedRate() > 0) {
          rates.put(ClientHistory.serverKey(s.replica()), s.predictedRate());
        }
      }
      if (rates.isEmpty()) {
        throw new IllegalArgumentException(
            "batch file " + e.getKey() + ": no matched replica has a forecast");
      }
      jobs.add(new MinMin.Job(e.getKey(), r.size(), rates));
    }
    return MinMin.schedule(jobs, clientCapacity);
  }

  /** Puts a provider answer into the cache (benchmarks and tests). */
  void prime(ProviderAnswer a) {
    discovery.prime(a);
  }

  /** Forgets every cached provider answer and storage ad. */
  public void clearCache() {
    discovery.clear();
    adCache.clear();
  }

  /** Forgets the storage ads built from cached answers, keeping the answers (benchmarks). */
  void clearAdCache() {
    adCache.clear();
  }

  /** Releases the HTTP client and closes the history store. */
  @Override
  public void close() {
    discovery.close();
    history.close();
  }

  /** Options for a {@link Broker}. Not thread-safe. */
  public static final class Builder {
    private InstantSource clock = InstantSource.system();
    private Duration timeout = Duration.ofSeconds(2);
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration ttl = Duration.ofMinutes(1);
    private Duration failureTtl = Duration.ofSeconds(10);
    private long maxResponseBytes = 4L << 20;
    private int providerPort = ProviderApi.DEFAULT_PORT;
    private boolean conventional = true;
    private final Map<String, URI> providers = new HashMap<>();
    private Path journal;
    private Path historyStore;
    private Forecaster forecaster = Forecaster.builder().build();
    private String clientPeer;
    private final Map<String, Declared> bottlenecks = new LinkedHashMap<>();
    private boolean learnBottlenecks = true;
    private double fraction = 0.95;
    private int maxSources = 8;
    private boolean loads = true;
    private double clientCapacity = Double.POSITIVE_INFINITY;

    private Builder() {}

    /**
     * The capacity of this client's own access link, bytes per second: every transfer ends here, so
     * a plan's rate is at most this ({@link #plan}: the link from the client's access vertex in the
     * platform graph) and the files of a batch share it ({@link #planBatch}). Default: none
     * (unlimited).
     *
     * @throws IllegalArgumentException if not positive and finite
     */
    public Builder clientCapacity(double bytesPerSecond) {
      if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
        throw new IllegalArgumentException(
            "client capacity must be positive and finite: " + bytesPerSecond);
      }
      this.clientCapacity = bytesPerSecond;
      return this;
    }

    /**
     * Whether to fetch each provider's latest disk utilization ({@code DiskLoad}, percent) and,
     * with {@link #clientPeer}, its network probe towards this client ({@code NetworkBandwidth})
     * from {@code /v1/series}, within the same timeout. Default: true.
     */
    public Builder loads(boolean on) {
      this.loads = on;
      return this;
    }

    /** The clock for cache ages and forecast times. Default: the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The most a discovery round may take: providers that have not answered by then are skipped
     * with a reason. Also the read timeout. Default: 2 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder timeout(Duration timeout) {
      this.timeout = positive("timeout", timeout);
      return this;
    }

    /**
     * The connect timeout (capped by {@link #timeout}). Default: 1 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder connectTimeout(Duration t) {
      this.connectTimeout = positive("connect timeout", t);
      return this;
    }

    /**
     * How long a provider's answer is reused. Default: 1 min.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder cacheTtl(Duration ttl) {
      this.ttl = positive("cache TTL", ttl);
      return this;
    }

    /**
     * How long a failed query is remembered before the provider is asked again. Default: 10 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder failureTtl(Duration ttl) {
      this.failureTtl = positive("failure TTL", ttl);
      return this;
    }

    /**
     * The largest provider answer read; larger ones are skipped with a reason. Default: 4 MiB.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxResponseBytes(long n) {
      if (n <= 0) {
        throw new IllegalArgumentException("max response bytes must be positive: " + n);
      }
      this.maxResponseBytes = n;
      return this;
    }

    /**
     * The port of conventional provider URLs. Default: 8790, the provider's default.
     *
     * @throws IllegalArgumentException if outside 1..65535
     */
    public Builder providerPort(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("provider port must be 1..65535: " + port);
      }
      this.providerPort = port;
      return this;
    }

    /** Whether hosts without a known provider are tried at the conventional URL. Default: true. */
    public Builder conventionalProviders(boolean on) {
      this.conventional = on;
      return this;
    }

    /**
     * The provider of a host ({@code host} or {@code host:port} of the replica URL; a URL without a
     * path gets {@code /v1/ads}).
     *
     * @throws IllegalArgumentException if the URL is not http or https with a host
     */
    public Builder provider(String host, URI url) {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(url, "url");
      if (!("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))
          || url.getHost() == null) {
        throw new IllegalArgumentException(
            "provider URL of " + host + " must be http(s)://HOST[:PORT]: " + url);
      }
      providers.put(host.toLowerCase(Locale.ROOT), url);
      return this;
    }

    /** Several providers, e.g. a catalog's {@code providers}. */
    public Builder providers(Map<String, URI> map) {
      map.forEach(this::provider);
      return this;
    }

    /**
     * This client's transfer journal (the downloader's), whose flows predict best. Default: none.
     * It is ingested incrementally into the history store ({@link #historyStore}); a missing
     * journal counts as empty, malformed lines are skipped with a logged reason.
     */
    public Builder journal(Path journal) {
      this.journal = journal;
      return this;
    }

    /**
     * Where the journal's flows are kept: an infoprovider store (SQLite) that remembers how far the
     * journal was read, so only new lines are parsed, and keeps flows for a year, also after the
     * journal is rotated. Created when the journal exists. A file that cannot be opened as such a
     * store disables this client's history with one warning. Default: {@code history.db} in the
     * journal's directory.
     */
    public Builder historyStore(Path file) {
      this.historyStore = file;
      return this;
    }

    /** The forecaster for journal history. Default: {@code Forecaster.builder().build()}. */
    public Builder forecaster(Forecaster f) {
      this.forecaster = Objects.requireNonNull(f, "forecaster");
      return this;
    }

    /**
     * This client's address as providers see it: their ad for this peer is used when published.
     * Default: none (the ad with the most read transfers).
     */
    public Builder clientPeer(String peer) {
      this.clientPeer = peer;
      return this;
    }

    /**
     * Declares a shared bottleneck: transfers from these hosts ({@code host} or {@code host:port})
     * to this client together reach at most {@code capacity} bytes per second.
     *
     * @throws IllegalArgumentException if the capacity is not positive and finite or there is no
     *     host
     */
    public Builder sharedBottleneck(String name, double capacity, Collection<String> hosts) {
      Objects.requireNonNull(name, "name");
      if (!(capacity > 0) || Double.isInfinite(capacity)) {
        throw new IllegalArgumentException(
            "bottleneck " + name + " capacity must be positive: " + capacity);
      }
      if (hosts.isEmpty()) {
        throw new IllegalArgumentException("bottleneck " + name + " has no host");
      }
      Set<String> h = new LinkedHashSet<>();
      hosts.forEach(x -> h.add(x.toLowerCase(Locale.ROOT)));
      bottlenecks.put(name, new Declared(capacity, h));
      return this;
    }

    /** Whether shared bottlenecks are learned from the journal. Default: true. */
    public Builder learnBottlenecks(boolean on) {
      this.learnBottlenecks = on;
      return this;
    }

    /**
     * The share of the max-flow bound the co-allocation set must reach. Default: 0.95.
     *
     * @throws IllegalArgumentException if outside (0, 1]
     */
    public Builder coallocationFraction(double f) {
      if (!(f > 0 && f <= 1)) {
        throw new IllegalArgumentException("co-allocation fraction must be in (0, 1]: " + f);
      }
      this.fraction = f;
      return this;
    }

    /**
     * The most replicas in a plan. Default: 8.
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder maxSources(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("max sources must be at least 1: " + n);
      }
      this.maxSources = n;
      return this;
    }

    /** The broker (it starts an HTTP client; close the broker when done). */
    public Broker build() {
      return new Broker(this);
    }

    private static Duration positive(String what, Duration d) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive: " + d);
      }
      return d;
    }
  }
}
