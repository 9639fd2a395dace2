package org.braid.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.Catalogs;
import org.braid.broker.catalog.ReplicaCatalog;

/**
 * The runnable example of docs/broker.md (kept here so that it compiles and runs in every build).
 */
public final class RankExample {

  private RankExample() {}

  /** Usage: RankExample CATALOG [JOURNAL] (a Metalink, JSON/YAML catalog or URL list). */
  public static void main(String[] args) throws Exception {
    ReplicaCatalog catalog = Catalogs.read(Path.of(args[0]));
    CatalogFile file = catalog.files().values().iterator().next();
    Broker.Builder builder =
        Broker.builder()
            .providers(catalog.providers()) // provider URLs the catalog names, if any
            .timeout(Duration.ofSeconds(2)); // a silent provider costs at most this
    if (args.length > 1) {
      builder.journal(Path.of(args[1])); // this client's own history predicts best
    }
    try (Broker broker = builder.build()) {
      Request request =
          Request.builder(file) // replicas and size from the catalog
              .requirements("other.AvgRDBandwidth > 5M/sec") // paper 003's request
              .build(); // default rank: other.PredictedBandwidth
      Plan plan = broker.plan(request); // ranks (select) and plans co-allocation
      for (RankedReplica r : plan.ranking()) {
        System.out.printf(
            Locale.ROOT,
            "%-6s %-45s %8.2f MB/s  %s%n",
            r.matched() ? "match" : "reject",
            r.replica().uri(),
            r.predictedBandwidth() / 1e6,
            r.matched() ? r.forecastSource() : r.reason());
      }
      for (Plan.Share s : plan.shares()) {
        System.out.printf(
            Locale.ROOT,
            "use %-45s %8.2f MB/s  %d bytes%n",
            s.replica().uri(),
            s.predictedRate() / 1e6,
            s.bytes());
      }
    }
  }
}
