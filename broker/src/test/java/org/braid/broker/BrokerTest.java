package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.braid.broker.catalog.Replica;
import org.braid.broker.graph.MinMin;
import org.braid.coalloc.journal.JournalLine;
import org.braid.matchmaking.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerTest {

  static final Instant T0 = Instant.parse("2026-11-22T05:00:00Z");

  @TempDir Path dir;
  final FakeServers fake = new FakeServers();
  final FakeClock clock = new FakeClock(T0);

  @AfterEach
  void close() throws Exception {
    fake.close();
  }

  /** A provider ad as infoprovider's StorageAds.json writes it. */
  static String ad(double avg, double pred, double err) {
    return "{\"MyType\":\"Storage\",\"hostname\":\"h\",\"volume\":\"/\",\"peer\":\"10.0.0.1\","
        + "\"MinRDBandwidth\":"
        + avg / 2
        + ",\"MaxRDBandwidth\":"
        + avg * 2
        + ",\"AvgRDBandwidth\":"
        + avg
        + ",\"RDTransfers\":20,\"AvgRDBandwidth10M\":"
        + avg
        + ",\"RDTransfers10M\":20"
        + (pred > 0
            ? ",\"PredRDBandwidth10M\":"
                + pred
                + ",\"PredRDErrorPct10M\":"
                + err
                + ",\"PredRDConfidencePct10M\":2.5"
            : "")
        + "}";
  }

  Broker.Builder broker() {
    return Broker.builder()
        .clock(clock)
        .timeout(Duration.ofSeconds(2))
        .conventionalProviders(false);
  }

  static Replica rep(String url, URI provider) {
    return new Replica(URI.create(url), Replica.NO_PRIORITY, "", provider);
  }

  @Test
  void closeDiscovery_stopsTheClientsThreads_andALookUpWaitingOnAProviderEndsAsAFailure()
      throws Exception {
    URI silent = fake.silent();
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (Broker b = broker().timeout(Duration.ofSeconds(60)).build()) {
      CompletableFuture<List<RankedReplica>> lookUp =
          CompletableFuture.supplyAsync(
              () -> b.select(Request.builder(List.of(rep("http://s.example/f", silent))).build()));
      Thread.sleep(300); // the look-up waits on the silent provider (or starts after the close)
      List<Thread> io = new ArrayList<>();
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (!before.contains(t) && t.getName().startsWith("httpclient-")) {
          io.add(t); // the client's I/O threads, in epoll_wait
        }
      }
      assertFalse(io.isEmpty(), "the discovery client's I/O threads run");
      b.closeDiscovery();
      for (Thread t : io) {
        t.join(10_000);
        assertFalse(t.isAlive(), t.getName() + " still runs: the JVM's exit would wait for it");
      }
      // not the 60 s the provider's answer was given: the closed client fails it
      List<RankedReplica> r = lookUp.get(30, TimeUnit.SECONDS);
      assertEquals(1, r.size());
      String note = String.valueOf(r.get(0).discovery());
      assertTrue(note.endsWith("IOException: discovery closed"), note);
      b.closeDiscovery(); // again: nothing left to stop
    }
  }

  @Test
  void select_ranksByPredictedBandwidth_andFillsTheAd() throws Exception {
    URI slow = fake.answering("[" + ad(4e6, 4.2e6, 10) + "]");
    URI fast = fake.answering("[" + ad(9e6, 8.5e6, 12) + "]");
    URI mid = fake.answering("[" + ad(6e6, 0, 0) + "]");
    try (Broker b = broker().build()) {
      List<RankedReplica> r =
          b.select(
              Request.builder(
                      List.of(
                          rep("http://slow.example/f", slow),
                          rep("gsiftp://fast.example/f", fast),
                          rep("http://mid.example/f", mid)))
                  .size(10_000_000)
                  .build());
      assertEquals(
          List.of("fast.example", "mid.example", "slow.example"),
          r.stream().map(x -> x.replica().host()).toList());
      RankedReplica f = r.get(0);
      assertTrue(f.matched());
      assertEquals(8.5e6, f.rank());
      assertEquals("provider", f.forecastSource());
      assertEquals(12, f.forecast().errorPct());
      assertEquals(Value.of(8.5e6), f.ad().evaluate("PredictedBandwidth"));
      assertEquals(Value.of(12.0), f.ad().evaluate("PredictionError"));
      assertEquals(Value.of(8.5e6 * (1 - 0.145)), f.ad().evaluate("PredictionLow"));
      assertEquals(Value.of("gsiftp"), f.ad().evaluate("protocol"));
      assertEquals(Value.of(9e6), f.ad().evaluate("AvgRDBandwidth"));
      assertEquals(Value.of("h"), f.ad().evaluate("providerHostname"));
      assertTrue(f.ad().evaluate("RTT") instanceof Value.RealValue);
      assertNull(f.discovery());
      // No forecast published: the provider's size-class average, without an error estimate.
      assertEquals("provider-average", r.get(1).forecastSource());
      assertTrue(r.get(1).ad().evaluate("PredictionError") instanceof Value.UndefinedValue);
    }
  }

  @Test
  void discovery_asksForUncompressedAnswers() throws Exception {
    // the provider's byte limit counts what arrives, and no codec is looked up per plan
    List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    URI p = fake.recordingEncodings("[" + ad(4e6, 0, 0) + "]", seen);
    try (Broker b = broker().build()) {
      b.select(Request.builder(List.of(rep("http://a.example/f", p))).build());
    }
    assertFalse(seen.isEmpty());
    assertEquals(List.of("(none)"), seen.stream().distinct().toList());
  }

  @Test
  void select_requirementRejects_withMatchmakerReason() throws Exception {
    URI slow = fake.answering("[" + ad(4e6, 0, 0) + "]");
    URI fast = fake.answering("[" + ad(9e6, 0, 0) + "]");
    try (Broker b = broker().build()) {
      List<RankedReplica> r =
          b.select(
              Request.builder(
                      List.of(
                          rep("http://slow.example/f", slow), rep("http://fast.example/f", fast)))
                  .requirements("other.AvgRDBandwidth > 5M/sec")
                  .rank("other.AvgRDBandwidth")
                  .build());
      assertEquals("fast.example", r.get(0).replica().host());
      assertEquals(9e6, r.get(0).rank());
      RankedReplica s = r.get(1);
      assertFalse(s.matched());
      assertEquals(
          "request clause other.AvgRDBandwidth > 5000000 is false (other.AvgRDBandwidth = 4.000000000000000E+06)",
          s.reason());
    }
  }

  @Test
  void select_brokenProviders_skippedWithReason_replicaStillListed() throws Exception {
    StringBuilder huge = new StringBuilder("[");
    for (int i = 0; i < 20_000; i++) {
      huge.append(i == 0 ? "" : ",").append(ad(1e6, 0, 0));
    }
    huge.append("]");
    Map<String, URI> providers = new java.util.LinkedHashMap<>();
    providers.put("garbage", fake.answering("<html>hello</html>"));
    providers.put("nan", fake.answering("[{\"AvgRDBandwidth\": NaN}]"));
    providers.put("notarray", fake.answering("{\"AvgRDBandwidth\": 5}"));
    providers.put("nested", fake.answering("[{\"a\": {\"b\": {\"c\": {\"d\": [[[1]]]}}}}]"));
    providers.put("huge", fake.answering(huge.toString()));
    providers.put("status", fake.answering(500, "oops".getBytes(StandardCharsets.UTF_8), null));
    providers.put("refused", FakeServers.refused());
    providers.put("silent", fake.silent());
    providers.put("trickling", fake.trickling());
    providers.put("good", fake.answering("[" + ad(7e6, 0, 0) + "]"));
    List<Replica> reps = new ArrayList<>();
    providers.forEach((k, u) -> reps.add(rep("http://" + k + ".example/f", u)));
    reps.add(Replica.of("http://none.example/f"));
    try (Broker b = broker().maxResponseBytes(100_000).build()) {
      long t = System.nanoTime();
      List<RankedReplica> r = b.select(Request.builder(reps).build());
      assertTrue(
          System.nanoTime() - t < Duration.ofSeconds(10).toNanos(), "bounded by the timeout");
      assertEquals(reps.size(), r.size());
      assertEquals("good.example", r.get(0).replica().host());
      assertEquals(7e6, r.get(0).rank());
      Map<String, String> notes = new java.util.HashMap<>();
      r.forEach(
          x ->
              notes.put(x.replica().host().replace(".example", ""), String.valueOf(x.discovery())));
      assertTrue(notes.get("garbage").contains("malformed JSON"), notes.get("garbage"));
      assertTrue(notes.get("nan").contains("malformed JSON"), notes.get("nan"));
      assertTrue(
          notes.get("notarray").endsWith("answer is not a JSON array of ads"),
          notes.get("notarray"));
      assertTrue(
          notes.get("nested").contains("malformed JSON")
              || notes.get("nested").contains("not a string or number"),
          notes.get("nested"));
      assertTrue(notes.get("huge").endsWith("answer larger than 100000 bytes"), notes.get("huge"));
      assertTrue(notes.get("status").endsWith("HTTP status 500"), notes.get("status"));
      assertTrue(notes.get("refused").contains("Connect"), notes.get("refused"));
      assertTrue(notes.get("silent").endsWith("no answer within 2000 ms"), notes.get("silent"));
      assertTrue(
          notes.get("trickling").endsWith("no answer within 2000 ms"), notes.get("trickling"));
      assertEquals("no information provider known for none.example", notes.get("none"));
      assertEquals("null", notes.get("good"));
      for (RankedReplica x : r) {
        assertTrue(x.matched(), "requirements true: every replica stays rankable");
        if (!x.replica().host().startsWith("good")) {
          assertEquals(0, x.rank());
          assertTrue(x.ad().evaluate("AvgRDBandwidth") instanceof Value.UndefinedValue);
        }
      }
    }
  }

  @Test
  void select_cachesAnswersForTtl_thenAsksAgain() throws Exception {
    AtomicInteger hits = new AtomicInteger();
    URI p = fake.answering(200, ("[" + ad(5e6, 0, 0) + "]").getBytes(StandardCharsets.UTF_8), hits);
    try (Broker b = broker().loads(false).cacheTtl(Duration.ofSeconds(60)).build()) {
      Request req =
          Request.builder(List.of(rep("http://a.example/f", p), rep("http://a.example/g", p)))
              .build();
      b.select(req);
      assertEquals(1, hits.get(), "one query per provider, not per replica");
      clock.advance(Duration.ofSeconds(59));
      b.select(req);
      assertEquals(1, hits.get());
      clock.advance(Duration.ofSeconds(2));
      b.select(req);
      assertEquals(2, hits.get());
    }
  }

  @Test
  void providerFor_catalogThenConfigThenConventional() {
    try (Broker b =
        Broker.builder().provider("b.example", URI.create("http://info.example:9000")).build()) {
      assertEquals(
          URI.create("http://x:1/v1/ads"),
          b.providerFor(rep("http://a.example/f", URI.create("http://x:1/v1/ads"))));
      assertEquals(
          URI.create("http://info.example:9000/v1/ads"),
          b.providerFor(Replica.of("https://b.example/f")));
      assertEquals(
          URI.create("http://c.example:8790/v1/ads"),
          b.providerFor(Replica.of("gsiftp://c.example/f")));
      assertEquals(
          URI.create("http://[::1]:8790/v1/ads"), b.providerFor(Replica.of("http://[::1]/f")));
      assertNull(b.providerFor(Replica.of("file:/tmp/f")));
    }
  }

  @Test
  void build_snapshotsTheBuilder_laterChangesDoNotReachABuiltBroker() {
    Broker.Builder builder =
        Broker.builder().provider("b.example", URI.create("http://info.example:9000"));
    try (Broker b = builder.build()) {
      builder
          .provider("b.example", URI.create("http://other.example:1"))
          .providerPort(9999)
          .directory(URI.create("ldap://bdii.example:2170/o=glue"));
      assertEquals(
          URI.create("http://info.example:9000/v1/ads"),
          b.providerFor(Replica.of("https://b.example/f")));
      assertEquals(
          URI.create("http://c.example:8790/v1/ads"),
          b.providerFor(Replica.of("gsiftp://c.example/f")));
      assertThrows(IllegalStateException.class, b::refreshDirectory);
    }
  }

  void journal(Path p, String server, double rate, int n) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      Instant s = T0.minusSeconds(3600 - i * 60L);
      long bytes = 8_000_000;
      Instant e = s.plusNanos((long) (bytes / rate * 1e9));
      sb.append(
              new JournalLine(
                      "d" + i,
                      "http://" + server + "/f",
                      server,
                      "me",
                      "/f",
                      0,
                      bytes,
                      bytes,
                      s,
                      e,
                      1,
                      "http",
                      "ok")
                  .toLine())
          .append('\n');
    }
    Files.writeString(
        p,
        sb.toString(),
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }

  @Test
  void select_clientHistoryOutranksProviderForecast() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    journal(j, "a.example:80", 2e6, 20);
    URI pa = fake.answering("[" + ad(9e6, 9e6, 5) + "]");
    URI pb = fake.answering("[" + ad(5e6, 5e6, 5) + "]");
    try (Broker b = broker().journal(j).build()) {
      List<RankedReplica> r =
          b.select(
              Request.builder(List.of(rep("http://a.example/f", pa), rep("http://b.example/f", pb)))
                  .size(8_000_000)
                  .build());
      assertEquals("b.example", r.get(0).replica().host());
      RankedReplica a = r.get(1);
      assertEquals("history", a.forecastSource());
      assertEquals(2e6, a.predictedBandwidth(), 2e6 * 0.01);
      assertEquals(Value.of(20L), a.ad().evaluate("HistoryTransfers"));
    }
  }

  @Test
  void plan_sharesProportionalToRates_andDeclaredBottleneckDropsTheRedundantReplica()
      throws Exception {
    URI pa = fake.answering("[" + ad(0, 60e6, 5) + "]");
    URI pb = fake.answering("[" + ad(0, 50e6, 5) + "]");
    URI pc = fake.answering("[" + ad(0, 30e6, 5) + "]");
    Request req =
        Request.builder(
                List.of(
                    rep("http://a.example/f", pa),
                    rep("http://b.example/f", pb),
                    rep("http://c.example/f", pc)))
            .size(10_000_000)
            .build();
    try (Broker b = broker().build()) {
      Plan p = b.plan(req);
      assertEquals(140e6, p.bound(), 1);
      assertEquals(140e6, p.rate(), 1);
      assertEquals(
          List.of(4_285_714L, 3_571_429L, 2_142_857L),
          p.shares().stream().map(Plan.Share::bytes).toList());
      assertEquals(10_000_000L, p.shares().stream().mapToLong(Plan.Share::bytes).sum());
    }
    // a and b share a 60 MB/s uplink: b adds nothing beyond a, so the plan is a and c.
    try (Broker b =
        broker().sharedBottleneck("site", 60e6, List.of("a.example", "b.example")).build()) {
      Plan p = b.plan(req);
      assertEquals(90e6, p.bound(), 1);
      assertEquals(
          List.of("a.example", "c.example"),
          p.shares().stream().map(s -> s.replica().host()).toList());
      assertEquals(60e6, p.shares().get(0).predictedRate(), 1);
      assertEquals(6_666_667L, p.shares().get(0).bytes());
    }
  }

  @Test
  void plan_noForecast_equalShares_andBatchNeedsForecasts() throws Exception {
    try (Broker b = broker().maxSources(2).build()) {
      Request req =
          Request.builder(
                  List.of(
                      Replica.of("http://a.example/f"),
                      Replica.of("http://b.example/f"),
                      Replica.of("http://c.example/f")))
              .size(11)
              .build();
      Plan p = b.plan(req);
      assertEquals(List.of(6L, 5L), p.shares().stream().map(Plan.Share::bytes).toList());
      assertEquals(0, p.bound());
      assertThrows(IllegalArgumentException.class, () -> b.planBatch(Map.of("x", req)));
    }
  }

  @Test
  void planBatch_minMinOrder() throws Exception {
    // The 100 MB file's size class has no forecast: the provider's overall average (10 MB/s)
    // serves.
    URI pa = fake.answering("[" + ad(10e6, 10e6, 5) + "]");
    try (Broker b = broker().build()) {
      Map<String, Request> m = new java.util.LinkedHashMap<>();
      m.put(
          "big",
          Request.builder(List.of(rep("http://a.example/big", pa))).size(100_000_000).build());
      m.put(
          "small",
          Request.builder(List.of(rep("http://a.example/small", pa))).size(10_000_000).build());
      List<MinMin.Scheduled> s = b.planBatch(m);
      assertEquals(List.of("small", "big"), s.stream().map(MinMin.Scheduled::id).toList());
      assertEquals(1.0, s.get(0).completion(), 1e-9);
      assertEquals(11.0, s.get(1).completion(), 1e-9);
    }
  }

  @Test
  void request_badExpressions_andArguments_clearErrors() {
    List<Replica> one = List.of(Replica.of("http://a/f"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Request.builder(one).requirements("other.x >").build())
            .getMessage()
            .startsWith("requirements: "));
    assertThrows(IllegalArgumentException.class, () -> Request.builder(List.of()).build());
    assertThrows(IllegalArgumentException.class, () -> Request.builder(one).size(-5).build());
    assertThrows(IllegalArgumentException.class, () -> Broker.builder().timeout(Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> Broker.builder().provider("h", URI.create("ftp://x/")));
  }

  /** A 0.x journal line: one request, the only one of its download. */
  static String flowLine(String server, Instant s, double seconds, double rate) {
    long bytes = (long) (rate * seconds);
    return new JournalLine(
                "d" + s.toEpochMilli(),
                "http://" + server + "/f",
                server,
                "me",
                "/f",
                0,
                bytes,
                bytes,
                s,
                s.plusMillis((long) (seconds * 1000)),
                1,
                "http",
                "ok")
            .toLine()
        + "\n";
  }

  @Test
  void plan_learnsSharedBottleneckFromJournal_andLeavesTheRedundantReplicaOut() throws Exception {
    // The journal: a alone 40 MB/s, b alone 30 MB/s, c alone 20 MB/s; a and b together only 40
    // (shared uplink), a and c together 59 (independent).
    Path j = dir.resolve("journal.jsonl");
    Instant t = T0.minusSeconds(7200);
    StringBuilder sb = new StringBuilder();
    sb.append(flowLine("a.example:80", t, 10, 40e6));
    sb.append(flowLine("b.example:80", t.plusSeconds(100), 10, 30e6));
    sb.append(flowLine("c.example:80", t.plusSeconds(200), 10, 20e6));
    sb.append(flowLine("a.example:80", t.plusSeconds(300), 10, 22e6));
    sb.append(flowLine("b.example:80", t.plusSeconds(300), 10, 18e6));
    sb.append(flowLine("a.example:80", t.plusSeconds(400), 10, 39e6));
    sb.append(flowLine("c.example:80", t.plusSeconds(400), 10, 20e6));
    Files.writeString(j, sb.toString());
    URI pa = fake.answering("[" + ad(0, 40e6, 5) + "]");
    URI pb = fake.answering("[" + ad(0, 30e6, 5) + "]");
    URI pc = fake.answering("[" + ad(0, 20e6, 5) + "]");
    // Too little history per server for a journal forecast (training size 15): the providers'
    // forecasts rank.
    Request req =
        Request.builder(
                List.of(
                    rep("http://a.example/f", pa),
                    rep("http://b.example/f", pb),
                    rep("http://c.example/f", pc)))
            .size(10_000_000)
            .build();
    try (Broker b = broker().journal(j).build()) {
      Plan p = b.plan(req);
      assertEquals("provider", p.ranking().get(0).forecastSource());
      assertEquals(60e6, p.bound(), 1);
      assertEquals(
          List.of("a.example", "c.example"),
          p.shares().stream().map(s -> s.replica().host()).toList());
    }
    try (Broker b = broker().journal(j).learnBottlenecks(false).build()) {
      assertEquals(90e6, b.plan(req).bound(), 1);
    }
  }

  @Test
  void select_loadsFromProviderSeries_inTheAd_andASlowSeriesKeepsTheAds() throws Exception {
    Map<String, String> good = new java.util.HashMap<>();
    good.put("/v1/ads", "[" + ad(6e6, 0, 0) + "]");
    good.put(
        "/v1/series",
        "[\"disk/sda/util_percent\", \"disk/sda/mb_per_second\", \"network/10.9.9.9/bandwidth\"]");
    good.put(
        "/v1/series/disk/sda/util_percent",
        "{\"series\":\"disk/sda/util_percent\",\"points\":[{\"time\":\"2026-11-22T04:00:00Z\",\"value\":12.5},{\"time\":\"2026-11-22T04:05:00Z\",\"value\":37.5}]}");
    good.put(
        "/v1/series/network/10.9.9.9/bandwidth",
        "{\"series\":\"network/10.9.9.9/bandwidth\",\"points\":[{\"time\":\"2026-11-22T04:05:00Z\",\"value\":4.5E7}]}");
    Map<String, String> slow = new java.util.HashMap<>();
    slow.put("/v1/ads", "[" + ad(5e6, 0, 0) + "]");
    slow.put("/v1/series", null);
    URI pg = fake.routes(good);
    URI ps = fake.routes(slow);
    try (Broker b = broker().clientPeer("10.9.9.9").build()) {
      List<RankedReplica> r =
          b.select(
              Request.builder(List.of(rep("http://g.example/f", pg), rep("http://s.example/f", ps)))
                  .build());
      assertEquals(Value.of(37.5), r.get(0).ad().evaluate("DiskLoad"));
      assertEquals(Value.of(4.5e7), r.get(0).ad().evaluate("NetworkBandwidth"));
      assertNull(r.get(1).discovery(), "the ads arrived; only the probe values timed out");
      assertEquals(Value.of(5e6), r.get(1).ad().evaluate("AvgRDBandwidth"));
      assertTrue(r.get(1).ad().evaluate("DiskLoad") instanceof Value.UndefinedValue);
    }
  }

  @Test
  void select_sameReplicaOtherSizeClass_getsThatClassesForecast_notACachedOne() throws Exception {
    URI p = fake.answering("[" + ad(5e6, 8e6, 10) + "]");
    try (Broker b = broker().build()) {
      List<Replica> one = List.of(rep("http://a.example/f", p));
      RankedReplica small = b.select(Request.builder(one).size(10_000_000).build()).get(0);
      RankedReplica big = b.select(Request.builder(one).size(2_000_000_000L).build()).get(0);
      RankedReplica again = b.select(Request.builder(one).size(20_000_000).build()).get(0);
      assertEquals(8e6, small.predictedBandwidth());
      assertEquals("provider", small.forecastSource());
      assertEquals(5e6, big.predictedBandwidth());
      assertEquals("provider-average", big.forecastSource());
      assertEquals(8e6, again.predictedBandwidth());
    }
  }

  @Test
  void rank_largeRequest_ordersByRank_tiesInInputOrder_rejectedAfter() {
    // 3,000 replicas with many equal ranks: best first, ties in input order, then the rejected.
    List<Replica> reps = new ArrayList<>();
    List<ProviderAnswer> answers = new ArrayList<>();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
    for (int i = 0; i < 3000; i++) {
      URI p = URI.create("http://p" + i + ".example:8790/v1/ads");
      reps.add(rep("http://h" + i + ".example/f", p));
      double avg = 1e6 * (1 + rnd.nextInt(20)); // many ties
      Map<String, Object> ad = new java.util.LinkedHashMap<>();
      ad.put("AvgRDBandwidth", avg);
      ad.put("RDTransfers", 10L);
      answers.add(new ProviderAnswer(p, List.of(ad), null, Duration.ofMillis(1), T0));
    }
    try (Broker b = broker().build()) {
      Request big =
          Request.builder(reps)
              .requirements("other.AvgRDBandwidth > 3M")
              .rank("other.AvgRDBandwidth")
              .build();
      List<RankedReplica> got = b.rank(big, answers);
      List<String> expected = new ArrayList<>();
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < reps.size(); i++) {
        order.add(i);
      }
      List<Integer> matched =
          order.stream()
              .filter(i -> (Double) answers.get(i).ads().get(0).get("AvgRDBandwidth") > 3e6)
              .sorted(
                  java.util.Comparator.comparingDouble(
                      i -> -(Double) answers.get(i).ads().get(0).get("AvgRDBandwidth")))
              .toList();
      matched.forEach(i -> expected.add(reps.get(i).uri().toString()));
      order.stream()
          .filter(i -> !matched.contains(i))
          .forEach(i -> expected.add(reps.get(i).uri().toString()));
      assertEquals(expected, got.stream().map(r -> r.replica().uri().toString()).toList());
      assertEquals(matched.size(), got.stream().filter(RankedReplica::matched).count());
    }
  }
}
