package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.broker.graph.MinMin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code Broker.Builder.clientCapacity}: the client's own link in plans and batch plans. */
class ClientCapacityTest {

  final FakeServers fake = new FakeServers();
  final FakeClock clock = new FakeClock(BrokerTest.T0);

  @AfterEach
  void close() throws Exception {
    fake.close();
  }

  Broker.Builder broker() {
    // Every provider here answers: the timeout only has to outlast a cold JVM's first query
    // (measured at 1.4 s with a load average of 14 on the 2-core development machine).
    return Broker.builder()
        .clock(clock)
        .timeout(Duration.ofSeconds(10))
        .conventionalProviders(false);
  }

  @Test
  void planBatch_capacityBelowTheSumOfRates_filesShareTheLink() throws Exception {
    // Two 10 MB files, each on its own server forecast at 8 MB/s. Without a limit both finish at
    // 1.25 s. With a 10 MB/s client link: x takes 8 MB/s until 1.25 s; y gets the other 2 MB/s
    // meanwhile (2.5 MB), then 8 MB/s for 7.5 MB (0.9375 s): 2.1875 s.
    URI pa = fake.answering("[" + BrokerTest.ad(8e6, 8e6, 5) + "]");
    URI pb = fake.answering("[" + BrokerTest.ad(8e6, 8e6, 5) + "]");
    Map<String, Request> m = new LinkedHashMap<>();
    m.put(
        "x",
        Request.builder(List.of(BrokerTest.rep("http://a.example/x", pa)))
            .size(10_000_000)
            .build());
    m.put(
        "y",
        Request.builder(List.of(BrokerTest.rep("http://b.example/y", pb)))
            .size(10_000_000)
            .build());
    try (Broker b = broker().build()) {
      List<MinMin.Scheduled> s = b.planBatch(m);
      assertEquals(1.25, s.get(0).completion(), 1e-9);
      assertEquals(1.25, s.get(1).completion(), 1e-9);
    }
    try (Broker b = broker().clientCapacity(10e6).build()) {
      List<MinMin.Scheduled> s = b.planBatch(m);
      assertEquals(List.of("x", "y"), s.stream().map(MinMin.Scheduled::id).toList());
      assertEquals(1.25, s.get(0).completion(), 1e-9);
      assertEquals(2.1875, s.get(1).completion(), 1e-9);
    }
  }

  @Test
  void plan_capacityBoundsTheRate_andTheSetStopsWhenTheLinkIsFull() throws Exception {
    URI pa = fake.answering("[" + BrokerTest.ad(0, 60e6, 5) + "]");
    URI pb = fake.answering("[" + BrokerTest.ad(0, 50e6, 5) + "]");
    URI pc = fake.answering("[" + BrokerTest.ad(0, 30e6, 5) + "]");
    Request req =
        Request.builder(
                List.of(
                    BrokerTest.rep("http://a.example/f", pa),
                    BrokerTest.rep("http://b.example/f", pb),
                    BrokerTest.rep("http://c.example/f", pc)))
            .size(10_000_000)
            .build();
    try (Broker b = broker().clientCapacity(100e6).build()) {
      Plan p = b.plan(req);
      assertEquals(100e6, p.bound(), 1);
      assertEquals(100e6, p.rate(), 1);
      // a (60) and b (50) already fill the 100 MB/s link: c adds nothing.
      assertEquals(
          List.of("a.example", "b.example"),
          p.shares().stream().map(s -> s.replica().host()).toList());
      assertEquals(10_000_000L, p.shares().stream().mapToLong(Plan.Share::bytes).sum());
    }
  }

  @Test
  void plan_capacityAndADeclaredBottleneck_bothBound() throws Exception {
    // a (60) and b (50) share a 40 MB/s bottleneck, c (30) has its own path; the client link
    // (100) is not the limit: 40 + 30 = 70
    URI pa = fake.answering("[" + BrokerTest.ad(0, 60e6, 5) + "]");
    URI pb = fake.answering("[" + BrokerTest.ad(0, 50e6, 5) + "]");
    URI pc = fake.answering("[" + BrokerTest.ad(0, 30e6, 5) + "]");
    Request req =
        Request.builder(
                List.of(
                    BrokerTest.rep("http://a.example/f", pa),
                    BrokerTest.rep("http://b.example/f", pb),
                    BrokerTest.rep("http://c.example/f", pc)))
            .size(10_000_000)
            .build();
    try (Broker b =
        broker()
            .clientCapacity(100e6)
            .sharedBottleneck("campus", 40e6, List.of("a.example", "b.example"))
            .build()) {
      assertEquals(70e6, b.plan(req).bound(), 1);
    }
  }

  @Test
  void clientCapacity_notPositiveAndFinite_rejected() {
    assertThrows(IllegalArgumentException.class, () -> Broker.builder().clientCapacity(0));
    assertThrows(IllegalArgumentException.class, () -> Broker.builder().clientCapacity(Double.NaN));
    assertThrows(
        IllegalArgumentException.class,
        () -> Broker.builder().clientCapacity(Double.POSITIVE_INFINITY));
  }
}
