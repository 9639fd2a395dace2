package org.braid.broker;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.braid.broker.catalog.Replica;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Discovery of 100 providers on 127.0.0.1 plus one that accepts connections and never answers,
 * with a 1 s timeout: one {@link Broker#select} with an empty cache. Goal: at most the silent
 * provider's timeout + 100 ms, i.e. 1100 ms.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(1)
public class DiscoveryBenchmark {

  static final int PROVIDERS = 100;
  static final String ADS =
      "[{\"MyType\":\"Storage\",\"hostname\":\"h\",\"volume\":\"/\",\"peer\":\"10.0.0.1\",\"MinRDBandwidth\":1.0E6,"
          + "\"MaxRDBandwidth\":9.0E7,\"AvgRDBandwidth\":2.5E7,\"StdRDBandwidth\":1.0E7,\"MedRDBandwidth\":2.4E7,"
          + "\"LastRDBandwidth\":2.2E7,\"RDTransfers\":120,\"AvgRDBandwidth10M\":2.5E7,\"RDTransfers10M\":120,"
          + "\"PredRDBandwidth10M\":2.4E7,\"PredRDErrorPct10M\":11.5,\"PredRDConfidencePct10M\":1.2}]";

  final List<HttpServer> servers = new ArrayList<>();
  ServerSocket silent;
  final List<Socket> held = new ArrayList<>();
  Broker broker;
  Request request;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    byte[] body = ADS.getBytes(StandardCharsets.UTF_8);
    List<Replica> reps = new ArrayList<>();
    for (int i = 0; i < PROVIDERS; i++) {
      HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      s.createContext("/", ex -> {
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream o = ex.getResponseBody()) {
          o.write(body);
        }
      });
      s.start();
      servers.add(s);
      reps.add(new Replica(URI.create("http://127.0.0.1:" + (20000 + i) + "/f"), Replica.NO_PRIORITY, "",
          URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/v1/ads")));
    }
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      try {
        while (true) {
          Socket c = silent.accept();
          synchronized (held) {
            held.add(c);
          }
        }
      } catch (IOException e) {
        // closed
      }
    });
    t.setDaemon(true);
    t.start();
    reps.add(new Replica(URI.create("http://127.0.0.1:19999/f"), Replica.NO_PRIORITY, "",
        URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/v1/ads")));
    broker = Broker.builder().timeout(Duration.ofSeconds(1)).build();
    request = Request.builder(reps).size(10_000_000).build();
  }

  @Setup(Level.Invocation)
  public void clear() {
    broker.clearCache();
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    broker.close();
    servers.forEach(s -> s.stop(0));
    silent.close();
    synchronized (held) {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Benchmark
  public List<RankedReplica> discover101() {
    List<RankedReplica> r = broker.select(request);
    long answered = r.stream().filter(x -> x.discovery() == null).count();
    if (answered != PROVIDERS) {
      throw new IllegalStateException("only " + answered + " providers answered");
    }
    return r;
  }
}
