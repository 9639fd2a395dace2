package org.braid.broker;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.predictors.Forecast;

/**
 * Builds each replica's {@link ReplicaAd}: chooses its provider ad ({@link ProviderAdChoice}),
 * makes its forecast (this client's history with the replica's endpoint, else the provider's
 * forecast for the size class, else the provider's average), says what to know about its provider
 * data, and builds the ClassAd ({@link AdBuilder}).
 *
 * <p>This client's history forecasts a replica once it has as many samples as the history
 * forecaster's training size, and before that only when no provider data forecasts it ({@link
 * HistoryForecaster.Result#trained()}). A forecast above this client's capacity (when known) is
 * clamped to it, its source suffixed {@code -clamped} and the reason given ({@link
 * RankedReplica#forecastNote()}); history forecasts are also kept within what was ever measured
 * ({@link HistoryForecaster}).
 *
 * <p>Host-level provider data ({@link ProviderAdChoice.Scope#HOST}) is flagged: its source is
 * {@code provider-host} or {@code provider-host-average}, its note says so, and its forecast's
 * error is widened by {@link #HOST_LEVEL_WIDENING} percentage points.
 *
 * <p>Ads built from a cached provider answer are reused while the answer is the same object and
 * this client has no history (up to 20,000 ads, then the cache is emptied). Thread-safe.
 */
final class AdFactory {

  /**
   * Percentage points added to the error of a forecast from host-level data: the figure may belong
   * to another door of the host (another protocol, another throttle), so the replica's rate may be
   * anywhere from 0 to about twice it (docs/broker.md).
   */
  static final double HOST_LEVEL_WIDENING = 100;

  /** The most endpoints a note lists. */
  private static final int MAX_LISTED = 3;

  private static final int MAX_CACHED_ADS = 20_000;

  private final ClientHistory history;
  private final String clientPeer;
  private final double clientCapacity;
  private final Map<AdKey, CachedAd> cache = new ConcurrentHashMap<>();

  private record AdKey(Replica replica, SizeClass sizeClass) {}

  private record CachedAd(ProviderAnswer answer, ReplicaAd ad) {}

  /** What the broker knows about one replica's provider before building its ad. */
  record Query(Replica replica, ProviderRoutes.Route route, ProviderAnswer answer) {
    Query {
      Objects.requireNonNull(replica, "replica");
    }
  }

  AdFactory(ClientHistory history, String clientPeer, double clientCapacity) {
    this.history = history;
    this.clientPeer = clientPeer;
    this.clientCapacity = clientCapacity;
  }

  /** Empties the cache when it has grown too large; call once per request. */
  void trim() {
    if (cache.size() > MAX_CACHED_ADS) {
      cache.clear();
    }
  }

  /** Forgets every cached ad. */
  void clear() {
    cache.clear();
  }

  /** The ad of one replica for a file of {@code size} bytes (-1: unknown) in size class sc. */
  ReplicaAd ad(Query q, ClientHistory.View hv, SizeClass sc, long size, Instant now) {
    AdKey key = new AdKey(q.replica(), sc);
    CachedAd c = cache.get(key);
    if (c != null && c.answer() == q.answer() && hv.stamp() == null) {
      // Without history the ad depends only on the provider's (cached) answer and the size.
      return c.ad();
    }
    ReplicaAd ad = build(q, hv, sc, size, now);
    cache.put(key, new CachedAd(q.answer(), ad));
    return ad;
  }

  private ReplicaAd build(Query q, ClientHistory.View hv, SizeClass sc, long size, Instant now) {
    Replica r = q.replica();
    ProviderAnswer a = q.answer();
    ProviderAdChoice choice =
        a != null && a.ok()
            ? ProviderAdChoice.choose(a.ads(), r.uri(), q.route().forEndpoint(), clientPeer)
            : ProviderAdChoice.NONE;
    boolean host = choice.scope() == ProviderAdChoice.Scope.HOST;
    HistoryForecaster.Result h = history.forecast(hv, r, size, now);
    Forecast p = AdBuilder.providerForecast(choice.ad(), sc);
    Forecast f = null;
    String clamp = null;
    String source = "none";
    if (h != null && (h.trained() || p == null)) {
      f = h.forecast();
      clamp = h.clamp();
      source = "history";
    } else if (p != null) {
      source = (host ? "provider-host" : "provider") + (p.scored() > 0 ? "" : "-average");
      f = host ? widened(p) : p;
    }
    if (f == null) {
      f = Forecast.insufficient("none", 0);
    } else if (clamp == null && f.isAvailable() && f.value() > clientCapacity) {
      clamp =
          String.format(
              Locale.ROOT,
              "forecast %.2f MB/s clamped to %.2f MB/s, this client's capacity",
              f.value() / 1e6,
              clientCapacity / 1e6);
      f = withValue(f, clientCapacity);
    }
    if (clamp != null) {
      source += "-clamped";
    }
    String note = note(r, a, choice);
    return new ReplicaAd(
        r,
        AdBuilder.build(r, a, choice, f, source, ClientHistory.count(hv, r)),
        f,
        source,
        note,
        clamp);
  }

  private static Forecast withValue(Forecast f, double value) {
    return new Forecast(
        f.predictor(),
        value,
        f.errorPct(),
        f.ciPct(),
        f.history(),
        f.scored(),
        f.chosen(),
        f.status());
  }

  /** The forecast with its error widened by {@link #HOST_LEVEL_WIDENING} when it has one. */
  static Forecast widened(Forecast f) {
    if (f.scored() == 0) {
      return f; // no error estimate to widen: it stays unknown
    }
    return new Forecast(
        f.predictor(),
        f.value(),
        f.errorPct() + HOST_LEVEL_WIDENING,
        f.ciPct(),
        f.history(),
        f.scored(),
        f.chosen(),
        f.status());
  }

  /** Why a replica has no provider data of its own, or null when it has. */
  private static String note(Replica r, ProviderAnswer a, ProviderAdChoice choice) {
    if (a == null) {
      return "no information provider known for " + r.host();
    }
    if (!a.ok()) {
      return "provider " + a.endpoint() + ": " + a.error();
    }
    if (a.ads().isEmpty()) {
      return "provider " + a.endpoint() + " published no ads";
    }
    String own = Endpoint.serverOf(r.uri()).server();
    if (choice.ad() == null) {
      return "provider "
          + a.endpoint()
          + " publishes no statistics for endpoint "
          + own
          + " (only for "
          + list(choice.published())
          + ")";
    }
    if (choice.scope() == ProviderAdChoice.Scope.HOST) {
      return "host-level statistics: provider "
          + a.endpoint()
          + " publishes none for endpoint "
          + own
          + "; error widened by "
          + (int) HOST_LEVEL_WIDENING
          + " points";
    }
    return null;
  }

  private static String list(Set<Endpoint> endpoints) {
    String shown =
        endpoints.stream().limit(MAX_LISTED).map(Endpoint::url).collect(Collectors.joining(", "));
    int more = endpoints.size() - MAX_LISTED;
    return more > 0 ? shown + " and " + more + " more" : shown;
  }
}
