package org.braid.broker;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one information provider answered: its storage ads, or why there are none.
 *
 * @param endpoint the URL queried
 * @param ads the ads as attribute maps (values are String, Long or Double), empty on failure
 * @param error null on success, else one line saying what went wrong
 * @param rtt time from request to full answer (for failures, to the failure)
 * @param fetched when the answer arrived (the broker's clock)
 * @param loads the latest probe values the provider publishes, by ad attribute name ({@code
 *     DiskLoad}, {@code NetworkBandwidth}); empty when it publishes none
 */
record ProviderAnswer(
    URI endpoint,
    List<Map<String, Object>> ads,
    String error,
    Duration rtt,
    Instant fetched,
    Map<String, Double> loads) {
  ProviderAnswer {
    ads = List.copyOf(ads);
    loads = Map.copyOf(loads);
  }

  ProviderAnswer(
      URI endpoint, List<Map<String, Object>> ads, String error, Duration rtt, Instant fetched) {
    this(endpoint, ads, error, rtt, fetched, Map.of());
  }

  ProviderAnswer withLoads(Map<String, Double> l) {
    return new ProviderAnswer(endpoint, ads, error, rtt, fetched, l);
  }

  boolean ok() {
    return error == null;
  }
}
