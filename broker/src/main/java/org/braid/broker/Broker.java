package org.braid.broker;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.braid.broker.catalog.Replica;
import org.braid.broker.graph.MinMin;
import org.braid.matchmaking.Matchmaker;
import org.braid.predictors.Forecaster;

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
 * provider's forecast for the size class, or the provider's average for the size class. Each
 * replica gets the statistics of its own endpoint (scheme, host, port, path prefix), never those of
 * another door of its host; host-level data is used only when nothing else exists, flagged and with
 * its error widened (see {@link RankedReplica#forecastSource()}). A provider that is silent, slow
 * or answers garbage costs at most the timeout and leaves its replica rankable with undefined
 * attributes and a {@link RankedReplica#discovery()} note.
 *
 * <p>The parts: {@link ProviderRoutes} (which provider), {@link Discovery} (what it publishes),
 * {@link AdFactory} (each replica's ad and forecast), {@link Ranker} (matching), {@link Planner}
 * (co-allocation and batches).
 *
 * <p>Thread-safe. Close it to release the HTTP client.
 */
public final class Broker implements AutoCloseable {

  private final Selector selector;
  private final Planner planner;

  private Broker(Builder b) {
    ClientHistory history = BrokerParts.history(b);
    this.selector = BrokerParts.selector(b, history);
    this.planner = BrokerParts.planner(b, history);
  }

  /** A builder with the defaults stated on each option. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The information provider URL the broker queries for a replica: the replica's own (from the
   * catalog), else one configured for its {@code host:port} or host, else the conventional {@code
   * http://HOST:8790/v1/ads}; null when there is none (a local file, or conventional URLs off).
   *
   * @throws NullPointerException if the replica is null
   */
  public URI providerFor(Replica r) {
    ProviderRoutes.Route route = selector.routeFor(Objects.requireNonNull(r, "replica"));
    return route == null ? null : route.url();
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
    return selector.select(Objects.requireNonNull(request, "request"));
  }

  /**
   * Ranks with given provider answers (one per replica, null for none): the part after discovery.
   */
  List<RankedReplica> rank(Request request, List<ProviderAnswer> answers) {
    return selector.rank(request, answers);
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
    return planner.plan(request, select(request));
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
    return planner.planBatch(requests, this::plan);
  }

  /**
   * Reads the directory now, with its one subtree search (a broker built with {@link
   * Builder#directory}), so that an unreachable server, a bad base DN or a directory without Braid
   * entries shows as an exception here instead of as a note on every replica; the answer is cached
   * for the next {@link #select} like any other.
   *
   * @throws IllegalStateException if the broker discovers over HTTP
   * @throws IOException with a one-line reason naming the directory
   */
  public void refreshDirectory() throws IOException {
    if (!(selector.discovery() instanceof LdapDiscovery d)) {
      throw new IllegalStateException("this broker discovers over HTTP, not through a directory");
    }
    d.refresh();
  }

  /** Puts a provider answer into the cache (benchmarks and tests). */
  void prime(ProviderAnswer a) {
    selector.prime(a);
  }

  /** Forgets every cached provider answer and storage ad. */
  public void clearCache() {
    selector.clear(/* answers= */ true);
  }

  /** Forgets the storage ads built from cached answers, keeping the answers (benchmarks). */
  void clearAdCache() {
    selector.clear(/* answers= */ false);
  }

  /**
   * Stops discovery now: its HTTP client is closed and its I/O threads stopped (the history store
   * stays open, {@link #close} closes it). A look-up started after this, or one waiting for a
   * provider meanwhile, answers as a provider that failed. For a caller that no longer needs the
   * plan in progress on another thread: the JVM's exit waits up to about 300 ms for threads in
   * native code, such as the client's I/O threads in {@code epoll_wait}. Idempotent.
   */
  public void closeDiscovery() {
    selector.closeDiscovery();
  }

  /** Releases the HTTP client and closes the history store. */
  @Override
  public void close() {
    selector.close();
  }

  /** Options for a {@link Broker}. Not thread-safe. */
  public static final class Builder extends DiscoveryOptions<Builder> {
    InstantSource clock = InstantSource.system();
    Path journal;
    Path historyStore;
    Forecaster forecaster = Forecaster.builder().build();
    final Map<String, Planner.Bottleneck> bottlenecks = new LinkedHashMap<>();
    boolean learnBottlenecks = true;
    double fraction = 0.95;
    int maxSources = 8;
    double clientCapacity = Double.POSITIVE_INFINITY;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /**
     * The capacity of this client's own access link, bytes per second: every transfer ends here, so
     * a plan's rate is at most this ({@link #plan}: the link from the client's access vertex in the
     * platform graph) and the files of a batch share it ({@link #planBatch}); no forecast is above
     * it, and history samples that the saturated link held back count as lower bounds ({@link
     * HistoryForecaster}). Default: none (unlimited).
     *
     * @throws IllegalArgumentException if not positive and finite
     */
    public Builder clientCapacity(double bytesPerSecond) {
      BrokerParts.requireArgument(
          bytesPerSecond > 0 && !Double.isInfinite(bytesPerSecond),
          "client capacity must be positive and finite: " + bytesPerSecond);
      this.clientCapacity = bytesPerSecond;
      return this;
    }

    /** The clock for cache ages and forecast times. Default: the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
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

    /**
     * The forecaster for journal history (one sample per download and replica); below its training
     * size the median of the last three samples forecasts ({@link HistoryForecaster}). Default:
     * {@code Forecaster.builder().build()}.
     */
    public Builder forecaster(Forecaster f) {
      this.forecaster = Objects.requireNonNull(f, "forecaster");
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
      BrokerParts.requireArgument(
          capacity > 0 && !Double.isInfinite(capacity),
          "bottleneck " + name + " capacity must be positive: " + capacity);
      BrokerParts.requireArgument(!hosts.isEmpty(), "bottleneck " + name + " has no host");
      Set<String> h = new LinkedHashSet<>();
      hosts.forEach(x -> h.add(x.toLowerCase(Locale.ROOT)));
      bottlenecks.put(name, new Planner.Bottleneck(capacity, h));
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
      BrokerParts.requireArgument(
          f > 0 && f <= 1, "co-allocation fraction must be in (0, 1]: " + f);
      this.fraction = f;
      return this;
    }

    /**
     * The most replicas in a plan. Default: 8.
     *
     * @throws IllegalArgumentException if below 1
     */
    public Builder maxSources(int n) {
      BrokerParts.requireArgument(n >= 1, "max sources must be at least 1: " + n);
      this.maxSources = n;
      return this;
    }

    /** The broker (it starts an HTTP client; close the broker when done). */
    public Broker build() {
      return new Broker(this);
    }
  }
}
