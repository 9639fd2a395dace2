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
 */
record ProviderAnswer(URI endpoint, List<Map<String, Object>> ads, String error, Duration rtt, Instant fetched) {
  ProviderAnswer {
    ads = List.copyOf(ads);
  }

  boolean ok() {
    return error == null;
  }
}
