package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.braid.broker.Broker;
import org.braid.broker.RankedReplica;
import org.braid.broker.Request;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.matchmaking.Value;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real provider's volume space reaches the broker's storage ad; requirements filter on it. */
class SpaceAdSystemTest {

  @TempDir Path dir;
  private final List<HttpServer> fakes = new ArrayList<>();

  @AfterEach
  void close() {
    fakes.forEach(s -> s.stop(0));
  }

  /** A provider stand-in on 127.0.0.1 that answers every request with {@code body}. */
  private URI answering(String body) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    s.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(200, b.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
          }
        });
    s.start();
    fakes.add(s);
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/v1/ads");
  }

  private static Replica rep(String url, URI provider) {
    return new Replica(URI.create(url), Replica.NO_PRIORITY, "", provider);
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
        answering(
            "[{\"MyType\":\"Storage\",\"hostname\":\"full\",\"volume\":\"/\",\"peer\":\"10.0.0.1\","
                + "\"AvgRDBandwidth\":9000000.0,\"RDTransfers\":20,\"AvailableSpace\":1000,\"TotalSpace\":5000000}]");
    // A provider that publishes no space: the attribute is undefined, so the requirement is not
    // met.
    URI unknown =
        answering(
            "[{\"MyType\":\"Storage\",\"hostname\":\"h\",\"volume\":\"/\",\"peer\":\"10.0.0.1\","
                + "\"AvgRDBandwidth\":8000000.0,\"RDTransfers\":20}]");
    try (Provider p = provider(data);
        Broker b =
            Broker.builder().timeout(Duration.ofSeconds(2)).conventionalProviders(false).build()) {
      URI real = URI.create("http://127.0.0.1:" + p.httpPort() + "/v1/ads");
      long before = fs.getUsableSpace();
      List<RankedReplica> r =
          b.select(
              Request.builder(
                      List.of(
                          rep("http://full.example/f", full),
                          rep("http://unknown.example/f", unknown),
                          rep("http://roomy.example/f", real)))
                  .size(10_000_000)
                  .requirements("other.AvailableSpace > FileSize")
                  .build());
      long after = fs.getUsableSpace();
      Map<String, RankedReplica> byHost = new HashMap<>();
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
}
