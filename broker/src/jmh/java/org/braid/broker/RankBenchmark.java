package org.braid.broker;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.braid.broker.catalog.Replica;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ranking 10,000 replicas, each on its own host with its own provider, from cached provider ads:
 * {@link Broker#select} with every answer in the cache (provider lookup, ad building with the
 * provider's forecast for the size class, matching with the paper's requirement, ranking).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RankBenchmark {

  static final int REPLICAS = 10_000;
  Broker broker;
  Request request;
  final Map<Replica, Map<String, Object>> ads = new java.util.HashMap<>();

  @Setup
  public void setup() {
    broker = Broker.builder().cacheTtl(Duration.ofDays(1)).build();
    SplittableRandom rnd = new SplittableRandom(1);
    List<Replica> reps = new ArrayList<>();
    for (int i = 0; i < REPLICAS; i++) {
      String host = "mirror" + i + ".example.org";
      URI provider = URI.create("http://" + host + ":8790/v1/ads");
      reps.add(new Replica(URI.create("https://" + host + "/data/run42.h5"), 1 + rnd.nextInt(100), "", provider));
      double avg = 1e6 + rnd.nextDouble() * 100e6;
      Map<String, Object> ad = new LinkedHashMap<>();
      ad.put("MyType", "Storage");
      ad.put("hostname", host);
      ad.put("volume", "/");
      ad.put("peer", "10.0.0.1");
      ad.put("MinRDBandwidth", avg / 3);
      ad.put("MaxRDBandwidth", avg * 2);
      ad.put("AvgRDBandwidth", avg);
      ad.put("StdRDBandwidth", avg / 4);
      ad.put("MedRDBandwidth", avg);
      ad.put("LastRDBandwidth", avg);
      ad.put("RDTransfers", 200L);
      ad.put("AvgRDBandwidth1G", avg);
      ad.put("RDTransfers1G", 50L);
      ad.put("PredRDBandwidth1G", avg * 0.95);
      ad.put("PredRDErrorPct1G", 12.5);
      ad.put("PredRDConfidencePct1G", 1.5);
      ads.put(reps.get(i), ad);
      broker.prime(new ProviderAnswer(provider, List.of(ad), null, Duration.ofMillis(20), Instant.now()));
    }
    request = Request.builder(reps).size(2_000_000_000L).requirements("other.AvgRDBandwidth > 5M/sec").build();
  }

  @TearDown
  public void close() {
    broker.close();
  }

  /** Provider answers and the storage ads built from them are cached: discovery-free ranking. */
  @Benchmark
  public List<RankedReplica> select10k() {
    return broker.select(request);
  }

  /** Only building the 10,000 storage ads (no matching): where the rebuild time goes. */
  @Benchmark
  public int buildAdsOnly() {
    int n = 0;
    for (Replica r : request.replicas()) {
      ProviderAdChoice choice =
          new ProviderAdChoice(ads.get(r), ProviderAdChoice.Scope.NAMED, Set.of());
      n += AdBuilder.build(r, null, choice, null, "none", 0).size();
    }
    return n;
  }

  /** Provider answers cached, storage ads rebuilt from them every time. */
  @Benchmark
  public List<RankedReplica> select10kRebuildAds() {
    broker.clearAdCache();
    return broker.select(request);
  }
}
