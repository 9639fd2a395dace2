package org.braid.provider;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.stats.StatsAccumulator;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Store;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;

/**
 * The statistics of the stored transfers, one {@link StatsAccumulator} per endpoint (null for the
 * host-level logs that name none): each log's transfers count for its own endpoint only. Not
 * thread-safe: the provider's lock guards it.
 */
final class EndpointStatistics {

  /** By endpoint in configuration order; the null key holds the host-level statistics. */
  private final Map<Endpoint, StatsAccumulator> byEndpoint = new LinkedHashMap<>();

  private EndpointStatistics(List<ConfiguredLog> logs) {
    for (ConfiguredLog l : logs) {
      byEndpoint.computeIfAbsent(l.endpoint(), e -> new StatsAccumulator());
    }
  }

  /**
   * The statistics of everything the store holds from these logs (a transfer is filed under the log
   * that read it, so transfers of logs no longer configured are left out).
   *
   * @throws IOException if the store cannot be read
   */
  static EndpointStatistics fromStore(Store store, List<ConfiguredLog> logs) throws IOException {
    EndpointStatistics s = new EndpointStatistics(logs);
    for (ConfiguredLog l : logs) {
      store.forEachTransfer(l.tailer().path().toString(), r -> s.add(l.endpoint(), r));
    }
    return s;
  }

  /** Counts one newly stored transfer for its log's endpoint (null: host-level). */
  void add(Endpoint endpoint, TransferRecord r) {
    byEndpoint.computeIfAbsent(endpoint, e -> new StatsAccumulator()).add(r);
  }

  /** The statistics with forecasts, endpoint by endpoint, each sorted by key. */
  List<ScopedStats> result(ForecastInputs in) {
    List<ScopedStats> out = new ArrayList<>();
    byEndpoint.forEach(
        (endpoint, acc) -> {
          for (TransferStats s : acc.result(in)) {
            out.add(new ScopedStats(endpoint, s));
          }
        });
    return out;
  }
}
