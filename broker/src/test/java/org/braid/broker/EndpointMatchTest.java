package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.broker.catalog.Replica;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.matchmaking.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 21: each replica gets its own endpoint's statistics, never a neighbour's. */
class EndpointMatchTest {

  static final Instant T0 = BrokerTest.T0;

  @TempDir Path dir;
  final FakeServers fake = new FakeServers();
  final FakeClock clock = new FakeClock(T0);

  @AfterEach
  void close() throws Exception {
    fake.close();
  }

  /** An ad as the provider's StorageAds writes it: endpoint (null: none), average, forecast. */
  static Map<String, Object> ad(String endpoint, double avg, double pred, double err) {
    Map<String, Object> ad = new LinkedHashMap<>();
    ad.put(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    ad.put(AdAttributes.HOSTNAME, "se.example.org");
    ad.put(AdAttributes.VOLUME, "/");
    ad.put(AdAttributes.PEER, "10.0.0.1");
    if (endpoint != null) {
      AdAttributes.putEndpoint(ad, Endpoint.parse(endpoint));
    }
    ad.put("AvgRDBandwidth", avg);
    ad.put("RDTransfers", 20L);
    if (pred > 0) {
      ad.put("PredRDBandwidth", pred);
      ad.put("PredRDErrorPct", err);
      ad.put("PredRDConfidencePct", 2.5);
    }
    return ad;
  }

  URI provider(Map<String, Object> ad) throws Exception {
    return fake.answering(AdsJson.write(List.of(ad)));
  }

  URI provider(Map<String, Object> a, Map<String, Object> b) throws Exception {
    return fake.answering(AdsJson.write(List.of(a, b)));
  }

  URI provider(Map<String, Object> a, Map<String, Object> b, Map<String, Object> c)
      throws Exception {
    return fake.answering(AdsJson.write(List.of(a, b, c)));
  }

  Broker.Builder broker() {
    return Broker.builder()
        .clock(clock)
        .loads(false)
        .timeout(Duration.ofSeconds(10)) // every provider answers; a cold JVM may be slow
        .conventionalProviders(false);
  }

  static Map<String, RankedReplica> byUrl(List<RankedReplica> r) {
    Map<String, RankedReplica> m = new LinkedHashMap<>();
    r.forEach(x -> m.put(x.replica().uri().toString(), x));
    return m;
  }

  @Test
  void select_twoDoorsOfOneHost_eachItsOwnFigures_aThirdPortUnknown() throws Exception {
    URI p =
        provider(
            ad("gsiftp://se.example.org:2811", 20e6, 0, 0),
            ad("http://se.example.org:8080", 5e6, 0, 0));
    try (Broker b = broker().provider("se.example.org", p).build()) {
      List<RankedReplica> r =
          b.select(
              Request.builder(
                      List.of(
                          Replica.of("http://se.example.org:9090/data/f"),
                          Replica.of("http://se.example.org:8080/data/f"),
                          Replica.of("gsiftp://se.example.org/data/f")))
                  .build());
      assertEquals(
          List.of(
              "gsiftp://se.example.org/data/f",
              "http://se.example.org:8080/data/f",
              "http://se.example.org:9090/data/f"),
          r.stream().map(x -> x.replica().uri().toString()).toList());
      assertEquals(20e6, r.get(0).predictedBandwidth());
      assertEquals("provider-average", r.get(0).forecastSource());
      assertEquals(Value.of("endpoint"), r.get(0).ad().evaluate("StatisticsScope"));
      assertEquals(Value.of("gsiftp"), r.get(0).ad().evaluate("endpointScheme"));
      assertNull(r.get(0).discovery());
      assertEquals(5e6, r.get(1).predictedBandwidth());
      RankedReplica unknown = r.get(2);
      assertEquals("none", unknown.forecastSource());
      assertEquals(0, unknown.predictedBandwidth());
      assertTrue(unknown.ad().evaluate("AvgRDBandwidth") instanceof Value.UndefinedValue);
      assertEquals(
          "provider "
              + p
              + " publishes no statistics for endpoint http://se.example.org:9090 (only for"
              + " gsiftp://se.example.org:2811, http://se.example.org:8080)",
          unknown.discovery());
    }
  }

  @Test
  void select_aHostPortMapping_doesNotGiveAThirdPortTheProvidersOtherEndpoints() throws Exception {
    URI p = provider(ad("http://se.example.org:8080", 5e6, 0, 0));
    try (Broker b = broker().provider("se.example.org:9090", p).build()) {
      RankedReplica r =
          b.select(Request.builder(List.of(Replica.of("http://se.example.org:9090/f"))).build())
              .get(0);
      assertEquals("none", r.forecastSource());
      assertTrue(r.discovery().contains("publishes no statistics for endpoint"), r.discovery());
    }
  }

  @Test
  void select_longestPathPrefixWins() throws Exception {
    URI p =
        provider(
            ad("http://se.example.org/", 1e6, 0, 0),
            ad("http://se.example.org/fast/", 9e6, 0, 0),
            ad("http://se.example.org/fast/er/", 3e6, 0, 0));
    try (Broker b = broker().provider("se.example.org", p).build()) {
      Map<String, RankedReplica> r =
          byUrl(
              b.select(
                  Request.builder(
                          List.of(
                              Replica.of("http://se.example.org/fast/x"),
                              Replica.of("http://se.example.org/faster/x"),
                              Replica.of("http://se.example.org/fast/er/x")))
                      .build()));
      assertEquals(9e6, r.get("http://se.example.org/fast/x").predictedBandwidth());
      assertEquals(1e6, r.get("http://se.example.org/faster/x").predictedBandwidth());
      assertEquals(3e6, r.get("http://se.example.org/fast/er/x").predictedBandwidth());
    }
  }

  @Test
  void select_hostLevelData_flaggedInSourceAndNote_errorWidened() throws Exception {
    URI withForecast = provider(ad(null, 6e6, 6.5e6, 10));
    URI averageOnly = provider(ad(null, 4e6, 0, 0));
    try (Broker b =
        broker().provider("a.example", withForecast).provider("b.example", averageOnly).build()) {
      Map<String, RankedReplica> r =
          byUrl(
              b.select(
                  Request.builder(
                          List.of(
                              Replica.of("gsiftp://a.example/f"), Replica.of("http://b.example/f")))
                      .build()));
      RankedReplica a = r.get("gsiftp://a.example/f");
      assertEquals("provider-host", a.forecastSource());
      assertEquals(6.5e6, a.predictedBandwidth());
      assertEquals(110, a.forecast().errorPct(), 1e-9);
      assertEquals(Value.of(110.0), a.ad().evaluate("PredictionError"));
      assertEquals(Value.of(0.0), a.ad().evaluate("PredictionLow"));
      assertEquals(Value.of("host"), a.ad().evaluate("StatisticsScope"));
      assertEquals(
          "host-level statistics: provider "
              + withForecast
              + " publishes none for endpoint gsiftp://a.example:2811; error widened by 100 points",
          a.discovery());
      RankedReplica bb = r.get("http://b.example/f");
      assertEquals("provider-host-average", bb.forecastSource());
      assertEquals(4e6, bb.predictedBandwidth());
      assertTrue(bb.discovery().startsWith("host-level statistics: "), bb.discovery());
    }
  }

  @Test
  void select_oldProviderNamedForTheReplica_isTheEndpointsOwn() throws Exception {
    URI p = provider(ad(null, 6e6, 6.5e6, 10));
    try (Broker b = broker().build()) {
      RankedReplica r =
          b.select(
                  Request.builder(List.of(new Replica(URI.create("http://a.example/f"), 1, "", p)))
                      .build())
              .get(0);
      assertEquals("provider", r.forecastSource());
      assertEquals(10, r.forecast().errorPct(), 1e-9);
      assertNull(r.discovery());
      assertEquals(Value.of("named-provider"), r.ad().evaluate("StatisticsScope"));
    }
  }

  @Test
  void select_providerWithEndpoints_itsEndpointlessAdsAreHostLevel_evenWhenNamedForThePort()
      throws Exception {
    URI p = provider(ad("http://a.example:8080", 9e6, 0, 0), ad(null, 2e6, 0, 0));
    try (Broker b = broker().provider("a.example:2811", p).build()) {
      RankedReplica r =
          b.select(Request.builder(List.of(Replica.of("gsiftp://a.example/f"))).build()).get(0);
      assertEquals("provider-host-average", r.forecastSource());
      assertEquals(2e6, r.predictedBandwidth());
    }
  }

  @Test
  void select_issue21_anOldProvidersUrlNamesAnotherPort_theReplicaIsUnknown() throws Exception {
    // An ad from before endpoints were published: only the configured server URL names its door.
    Map<String, Object> old = ad(null, 8e6, 0, 0);
    old.put(AdAttributes.URL, "http://127.0.0.1:18081");
    URI p = provider(old);
    try (Broker b = broker().provider("127.0.0.1", p).build()) {
      Map<String, RankedReplica> r =
          byUrl(
              b.select(
                  Request.builder(
                          List.of(
                              Replica.of("http://127.0.0.1:28085/f20.bin"),
                              Replica.of("http://127.0.0.1:18081/f20.bin")))
                      .build()));
      assertEquals("none", r.get("http://127.0.0.1:28085/f20.bin").forecastSource());
      assertEquals(8e6, r.get("http://127.0.0.1:18081/f20.bin").predictedBandwidth());
      assertEquals("provider-average", r.get("http://127.0.0.1:18081/f20.bin").forecastSource());
    }
  }

  static String flow(String url, String server, String protocol, Instant s, double rate) {
    long bytes = (long) (rate * 4);
    return new JournalLine(
                "d" + s.toEpochMilli(),
                url,
                server,
                "me",
                "/f",
                0,
                bytes,
                bytes,
                s,
                s.plusSeconds(4),
                1,
                protocol,
                "ok")
            .toLine()
        + "\n";
  }

  @Test
  void select_history_keyedByEndpoint_notByHost() throws Exception {
    Path journal = dir.resolve("journal.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      sb.append(
          flow(
              "http://a.example:8080/f",
              "a.example:8080",
              "http",
              T0.minusSeconds(3600 - i * 60L),
              3e6));
    }
    Files.writeString(journal, sb);
    try (Broker b = broker().journal(journal).build()) {
      Map<String, RankedReplica> r =
          byUrl(
              b.select(
                  Request.builder(
                          List.of(
                              Replica.of("http://a.example:8080/f"),
                              Replica.of("http://a.example:9090/f"),
                              Replica.of("https://a.example:8080/f")))
                      .size(12_000_000)
                      .build()));
      assertEquals("history", r.get("http://a.example:8080/f").forecastSource());
      assertEquals(3e6, r.get("http://a.example:8080/f").predictedBandwidth(), 3e6 * 0.01);
      assertEquals(
          Value.of(20L), r.get("http://a.example:8080/f").ad().evaluate("HistoryTransfers"));
      for (String other : List.of("http://a.example:9090/f", "https://a.example:8080/f")) {
        assertEquals("none", r.get(other).forecastSource(), other);
        assertTrue(r.get(other).ad().evaluate("HistoryTransfers") instanceof Value.UndefinedValue);
      }
    }
  }
}
