package org.braid.broker;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;

/** Puts a {@link Broker} together from its builder's options, and checks those options. */
final class BrokerParts {

  private BrokerParts() {}

  /** This client's history: its journal, forecast for its capacity. */
  static ClientHistory history(Broker.Builder b) {
    return new ClientHistory(b.journal, b.historyStore, b.forecaster, b.clock, b.clientCapacity);
  }

  /** Routes, discovery (a directory's or each provider's over HTTP), ads and matching. */
  static Selector selector(Broker.Builder b, ClientHistory history) {
    Discovery discovery =
        b.directory != null
            ? new LdapDiscovery(
                b.directory,
                b.connectTimeout,
                b.timeout,
                b.ttl,
                b.failureTtl,
                b.directorySizeLimit,
                b.clock,
                b.loads,
                b.clientPeer)
            : new HttpDiscovery(
                b.connectTimeout,
                b.timeout,
                b.ttl,
                b.failureTtl,
                b.maxResponseBytes,
                b.clock,
                b.loads,
                b.clientPeer);
    return new Selector(
        b.directory != null
            ? ProviderRoutes.directory(b.directory)
            : new ProviderRoutes(b.providers, b.conventional, b.providerPort),
        discovery,
        history,
        new AdFactory(history, b.clientPeer, b.clientCapacity),
        b.clock);
  }

  /** Co-allocation plans and batches. */
  static Planner planner(Broker.Builder b, ClientHistory history) {
    return new Planner(
        new Planner.Options(
            // in declaration order: a host in two bottlenecks goes to the first
            Collections.unmodifiableMap(new LinkedHashMap<>(b.bottlenecks)),
            b.learnBottlenecks,
            b.fraction,
            b.maxSources,
            b.clientCapacity),
        history);
  }

  /** Caffeine's {@code requireArgument}: an IllegalArgumentException with the message. */
  static void requireArgument(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The duration if positive, else an IllegalArgumentException naming {@code what}. */
  static Duration positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    requireArgument(!d.isNegative() && !d.isZero(), what + " must be positive: " + d);
    return d;
  }
}
