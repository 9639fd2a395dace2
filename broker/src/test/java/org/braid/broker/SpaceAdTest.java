package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.Provider;
import org.braid.infoprovider.ProviderConfig;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.matchmaking.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A provider's volume space reaches the storage ad, and requirements can filter on it. */
class SpaceAdTest {

  @TempDir Path dir;
  final FakeServers fake = new FakeServers();

  @AfterEach
  void close() throws Exception {
    fake.close();
  }

  /** A real provider publishing the space of {@code data} as volume {@code /}. */
  private Provider provider(Path data) throws Exception {
    ProviderConfig c =
        new ProviderConfig(
            "space.example.org",
            null,
            dir.resolve("provider.db"),
            null,
            null,
            new ProviderConfig.Http("127.0.0.1", 0),
            List.of(new ProviderConfig.Log(dir.resolve("access.log"), LogFormat.NGINX, null)),
            null,
            List.of(new ProviderConfig.Volume("/", data)));
    Provider p = Provider.fromConfig(c, InstantSource.system());
    p.start();
    return p;
  }

  @Test
  void select_adCarriesTheProvidersSpace_andARequirementOnItFiltersAReplica() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    FileStore fs = Files.getFileStore(data);
    // A provider whose volume is nearly full: 1000 bytes left.
    URI full =
        fake.answering(
            "[{\"MyType\":\"Storage\",\"hostname\":\"full\",\"volume\":\"/\",\"peer\":\"10.0.0.1\","
                + "\"AvgRDBandwidth\":9000000.0,\"RDTransfers\":20,\"AvailableSpace\":1000,\"TotalSpace\":5000000}]");
    // A provider that publishes no space: the attribute is undefined, so the requirement is not
    // met.
    URI unknown = fake.answering("[" + BrokerTest.ad(8e6, 0, 0) + "]");
    try (Provider p = provider(data);
        Broker b =
            Broker.builder().timeout(Duration.ofSeconds(2)).conventionalProviders(false).build()) {
      URI real = URI.create("http://127.0.0.1:" + p.httpPort() + "/v1/ads");
      long before = fs.getUsableSpace();
      List<RankedReplica> r =
          b.select(
              Request.builder(
                      List.of(
                          BrokerTest.rep("http://full.example/f", full),
                          BrokerTest.rep("http://unknown.example/f", unknown),
                          BrokerTest.rep("http://roomy.example/f", real)))
                  .size(10_000_000)
                  .requirements("other.AvailableSpace > FileSize")
                  .build());
      long after = fs.getUsableSpace();
      Map<String, RankedReplica> byHost = new java.util.HashMap<>();
      r.forEach(x -> byHost.put(x.replica().host(), x));

      RankedReplica roomy = byHost.get("roomy.example");
      assertTrue(roomy.matched(), String.valueOf(roomy.reason()));
      assertEquals(Value.of(fs.getTotalSpace()), roomy.ad().evaluate("TotalSpace"));
      long avail = ((Value.IntegerValue) roomy.ad().evaluate("AvailableSpace")).value();
      long drift = 256L << 20; // other processes write to the shared disk meanwhile
      assertTrue(
          avail >= Math.min(before, after) - drift && avail <= Math.max(before, after) + drift,
          avail + " not between " + before + " and " + after);

      RankedReplica f = byHost.get("full.example");
      assertFalse(f.matched());
      assertEquals(Value.of(1000L), f.ad().evaluate("AvailableSpace"));
      assertTrue(f.reason().contains("other.AvailableSpace > FileSize"), f.reason());
      assertTrue(f.reason().contains("other.AvailableSpace = 1000"), f.reason());

      assertFalse(byHost.get("unknown.example").matched());
      assertTrue(
          byHost.get("unknown.example").ad().evaluate("AvailableSpace")
              instanceof Value.UndefinedValue);
      assertEquals(
          List.of("roomy.example"),
          r.stream().filter(RankedReplica::matched).map(x -> x.replica().host()).toList());
    }
  }

  @Test
  void pick_chosenAdWithoutSpace_takesItFromAnotherAdOfTheSameVolume() {
    Map<String, Object> mine =
        new java.util.LinkedHashMap<>(Map.of("volume", "/d", "peer", "me", "RDTransfers", 3L));
    Map<String, Object> other =
        Map.of(
            "volume", "/d", "peer", "x", "RDTransfers", 9L, "AvailableSpace", 7L, "TotalSpace", 8L);
    Map<String, Object> elsewhere = Map.of("volume", "/e", "AvailableSpace", 1L, "TotalSpace", 2L);
    Map<String, Object> ad = AdBuilder.pick(List.of(elsewhere, mine, other), "me");
    assertEquals("me", ad.get("peer"));
    assertEquals(7L, ad.get("AvailableSpace"));
    assertEquals(8L, ad.get("TotalSpace"));
    assertFalse(mine.containsKey("AvailableSpace"), "the provider's answer is not changed");
  }
}
