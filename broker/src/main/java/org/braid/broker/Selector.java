package org.braid.broker;

import java.net.URI;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.SizeClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's selection pipeline ({@link Broker#select}): each replica's provider ({@link
 * ProviderRoutes}), their answers ({@link Discovery}, all at once), each replica's ad and forecast
 * ({@link AdFactory}), and the ranking ({@link Ranker}). Thread-safe.
 */
final class Selector {

  private static final Logger LOG = LoggerFactory.getLogger(Selector.class);
  private static final AtomicLong IDS = new AtomicLong();

  private final ProviderRoutes routes;
  private final Discovery discovery;
  private final ClientHistory history;
  private final AdFactory ads;
  private final InstantSource clock;

  Selector(
      ProviderRoutes routes,
      Discovery discovery,
      ClientHistory history,
      AdFactory ads,
      InstantSource clock) {
    this.routes = routes;
    this.discovery = discovery;
    this.history = history;
    this.ads = ads;
    this.clock = clock;
  }

  /** The provider to ask about a replica, or null. */
  ProviderRoutes.Route routeFor(Replica r) {
    return routes.routeFor(r);
  }

  /** Discovers, builds the ads and ranks ({@link Broker#select}). */
  List<RankedReplica> select(Request request) {
    long id = IDS.incrementAndGet();
    List<ProviderRoutes.Route> found = new ArrayList<>();
    Set<URI> providers = new LinkedHashSet<>();
    for (Replica r : request.replicas()) {
      ProviderRoutes.Route route = routes.routeFor(r);
      found.add(route);
      if (route != null) {
        providers.add(route.url());
      }
    }
    Map<URI, ProviderAnswer> answers = discovery.fetch(providers);
    List<AdFactory.Query> queries = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      ProviderRoutes.Route route = found.get(i);
      ProviderAnswer a = route == null ? null : answers.get(route.url());
      queries.add(new AdFactory.Query(request.replicas().get(i), route, a));
    }
    List<RankedReplica> out = rankQueries(request, queries);
    LOG.debug(
        "select r{}: {} replicas, {} of {} providers answered, {} matched",
        id,
        out.size(),
        answers.values().stream().filter(ProviderAnswer::ok).count(),
        answers.size(),
        out.stream().filter(RankedReplica::matched).count());
    return out;
  }

  /** Ranks with given provider answers, one per replica (null for none): no discovery. */
  List<RankedReplica> rank(Request request, List<ProviderAnswer> answers) {
    List<AdFactory.Query> queries = new ArrayList<>();
    for (int i = 0; i < answers.size(); i++) {
      Replica r = request.replicas().get(i);
      queries.add(new AdFactory.Query(r, routes.routeFor(r), answers.get(i)));
    }
    return rankQueries(request, queries);
  }

  private List<RankedReplica> rankQueries(Request request, List<AdFactory.Query> queries) {
    SizeClass sc = SizeClass.of(Math.max(0, request.size()));
    ClientHistory.View hv = history.view();
    ads.trim();
    List<ReplicaAd> built = new ArrayList<>(queries.size());
    for (AdFactory.Query q : queries) {
      built.add(ads.ad(q, hv, sc, request.size(), clock.instant()));
    }
    return Ranker.rank(request, sc, built);
  }

  /** The discovery (to read a directory ahead of ranking). */
  Discovery discovery() {
    return discovery;
  }

  /** Puts a provider answer into the discovery's cache (benchmarks and tests). */
  void prime(ProviderAnswer a) {
    discovery.prime(a);
  }

  /** Forgets every cached provider answer and, with {@code answers} false, only the ads. */
  void clear(boolean answers) {
    if (answers) {
      discovery.clear();
    }
    ads.clear();
  }

  /** Releases the discovery (its connections and threads); the history store stays open. */
  void closeDiscovery() {
    discovery.close();
  }

  /** Releases the discovery and closes the history store. */
  void close() {
    discovery.close();
    history.close();
  }
}
