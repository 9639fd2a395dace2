package org.braid.broker;

import static org.braid.infoprovider.TransferRecord.Operation.READ;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Endpoint;

/**
 * The provider ad a replica is ranked on, and how far it is the replica's own (issue 21: each
 * replica gets its own endpoint's statistics, never a neighbour's).
 *
 * <p>The ads whose endpoint ({@link AdAttributes#endpoint}) serves the replica's URL ({@link
 * Endpoint#serves}: same scheme, host and port, the URL's path under the endpoint's path) are its
 * own; of those, the longest path prefix wins. Failing that, ads that name no endpoint are used: as
 * the endpoint's own ({@link Scope#NAMED}) when the provider names no endpoint at all and was named
 * for this replica or its {@code host:port}, else as host-level data ({@link Scope#HOST}). A
 * provider whose ads all name other endpoints has nothing for the replica. Among the candidates the
 * ad for this client's peer address is chosen, else the one with the most read transfers; the
 * volume's space attributes are taken from another ad of the same volume when the chosen one lacks
 * them.
 *
 * @param ad the chosen ad, or null when the provider has none for the replica
 * @param scope how the ad relates to the replica's endpoint, null without an ad
 * @param published the endpoints the provider's ads name (for the reason when none matched)
 */
record ProviderAdChoice(Map<String, Object> ad, Scope scope, Set<Endpoint> published) {

  /** How a provider ad relates to the replica it is used for. */
  enum Scope {
    /** The ad names the replica's endpoint. */
    ENDPOINT,
    /**
     * The ad names no endpoint, its provider names none, and the provider was named for this
     * replica or its {@code host:port}: taken as the endpoint's own.
     */
    NAMED,
    /** The ad names no endpoint and is used as host-level data: flagged, its error widened. */
    HOST;

    /** The value of the ad attribute {@code StatisticsScope}. */
    String label() {
      return this == NAMED ? "named-provider" : name().toLowerCase(Locale.ROOT);
    }
  }

  /** No ad. */
  static final ProviderAdChoice NONE = new ProviderAdChoice(null, null, Set.of());

  /** The volume space attributes a provider publishes per volume (bytes). */
  static final List<String> SPACE = List.of(AdAttributes.AVAILABLE_SPACE, AdAttributes.TOTAL_SPACE);

  /**
   * Chooses among a provider's ads for the replica at {@code url}.
   *
   * @param forEndpoint whether the provider was named for this replica or its {@code host:port}
   * @param clientPeer this client's address as providers see it, or null
   */
  static ProviderAdChoice choose(
      List<Map<String, Object>> ads, URI url, boolean forEndpoint, String clientPeer) {
    List<Map<String, Object>> own = new ArrayList<>();
    List<Map<String, Object>> unscoped = new ArrayList<>();
    Set<Endpoint> published = new LinkedHashSet<>();
    int longest = -1;
    for (Map<String, Object> ad : ads) {
      Endpoint e = AdAttributes.endpoint(ad);
      if (e == null) {
        unscoped.add(ad);
        continue;
      }
      published.add(e);
      if (e.serves(url) && e.path().length() >= longest) {
        if (e.path().length() > longest) {
          own.clear();
          longest = e.path().length();
        }
        own.add(ad);
      }
    }
    if (!own.isEmpty()) {
      return new ProviderAdChoice(pick(own, ads, clientPeer), Scope.ENDPOINT, published);
    }
    if (!unscoped.isEmpty()) {
      Scope s = forEndpoint && published.isEmpty() ? Scope.NAMED : Scope.HOST;
      return new ProviderAdChoice(pick(unscoped, ads, clientPeer), s, published);
    }
    return new ProviderAdChoice(null, null, published);
  }

  /**
   * The client's own peer's ad if published, else the best-sampled one, with its volume's space.
   */
  private static Map<String, Object> pick(
      List<Map<String, Object>> candidates, List<Map<String, Object>> all, String clientPeer) {
    Map<String, Object> best = null;
    long bestCount = -1;
    String transfers = AdAttributes.transfers(READ, SizeClass.ALL);
    for (Map<String, Object> ad : candidates) {
      if (clientPeer != null && clientPeer.equals(ad.get(AdAttributes.PEER))) {
        best = ad;
        break;
      }
      long n = ad.get(transfers) instanceof Long ? (Long) ad.get(transfers) : 0;
      if (n > bestCount) {
        best = ad;
        bestCount = n;
      }
    }
    return withSpace(best, all);
  }

  /**
   * The ad with its volume's space taken from another ad of the same volume when it lacks it (a
   * provider publishes the space in every ad of a volume, and in an ad of its own for a volume
   * without transfers).
   */
  private static Map<String, Object> withSpace(
      Map<String, Object> ad, List<Map<String, Object>> ads) {
    if (ad.containsKey(SPACE.get(0)) || ad.get(AdAttributes.VOLUME) == null) {
      return ad;
    }
    for (Map<String, Object> other : ads) {
      if (ad.get(AdAttributes.VOLUME).equals(other.get(AdAttributes.VOLUME))
          && other.get(SPACE.get(0)) instanceof Long) {
        Map<String, Object> out = new LinkedHashMap<>(ad);
        for (String k : SPACE) {
          if (other.get(k) instanceof Long) {
            out.put(k, other.get(k));
          }
        }
        return out;
      }
    }
    return ad;
  }
}
