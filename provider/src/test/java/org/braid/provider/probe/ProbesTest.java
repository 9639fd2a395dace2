package org.braid.provider.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.store.Point;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbesTest {

  @TempDir Path dir;

  /** A clock the test moves by hand. */
  static final class FakeClock implements InstantSource {
    final AtomicReference<Instant> now = new AtomicReference<>(TestLines.NOW);

    @Override
    public Instant instant() {
      return now.get();
    }

    void advance(Duration d) {
      now.updateAndGet(t -> t.plus(d));
    }
  }

  static String diskstats(long sectorsRead, long sectorsWritten, long ioMillis) {
    return "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
        + "   8       0 sda 100 0 "
        + sectorsRead
        + " 50 200 0 "
        + sectorsWritten
        + " 70 0 "
        + ioMillis
        + " 120 0 0 0 0 0 0\n";
  }

  @Test
  void disk_twoReadings_giveUtilisationAndThroughputLikeIostat() throws IOException {
    Path f = dir.resolve("diskstats");
    FakeClock clock = new FakeClock();
    DiskProbe p = new DiskProbe(f, List.of("sda"), clock);
    Files.writeString(f, diskstats(1000, 2000, 5000));
    assertEquals(Map.of(), p.measure()); // baseline only
    clock.advance(Duration.ofMinutes(5));
    // 300 s later: 1,171,875 sectors more (600 MB) and 75 s busy.
    Files.writeString(f, diskstats(1000 + 500_000, 2000 + 671_875, 5000 + 75_000));
    Map<String, Point> m = p.measure();
    assertEquals(25.0, m.get("disk/sda/util_percent").value(), 1e-9);
    assertEquals(2.0, m.get("disk/sda/mb_per_second").value(), 1e-9);
    assertEquals(clock.instant(), m.get("disk/sda/util_percent").time());
  }

  @Test
  void disk_unknownDevice_failsWithName() throws IOException {
    Path f = dir.resolve("diskstats");
    Files.writeString(f, diskstats(1, 1, 1));
    IOException e =
        assertThrows(
            IOException.class, () -> new DiskProbe(f, List.of("nvme9"), new FakeClock()).measure());
    assertEquals("disk probe: device nvme9 not found in " + f, e.getMessage());
  }

  @Test
  void disk_realProcDiskstats_isReadable() throws IOException {
    if (!Files.isReadable(DiskProbe.PROC_DISKSTATS)) {
      return;
    }
    String dev = Files.readAllLines(DiskProbe.PROC_DISKSTATS).get(0).trim().split("\\s+")[2];
    FakeClock clock = new FakeClock();
    DiskProbe p = new DiskProbe(DiskProbe.PROC_DISKSTATS, List.of(dev), clock);
    p.measure();
    clock.advance(Duration.ofSeconds(1));
    Map<String, Point> m = p.measure();
    double util = m.get("disk/" + dev + "/util_percent").value();
    assertTrue(util >= 0 && util <= 100, "util " + util);
  }

  @Test
  void iperf_realResult_importedOnceAndMoved() throws Exception {
    Path folder = dir.resolve("iperf");
    Files.createDirectories(folder);
    try (InputStream in = getClass().getResourceAsStream("/probe/iperf3-real.json")) {
      Files.copy(in, folder.resolve("a.json"));
    }
    Files.writeString(folder.resolve("b.json"), "{\"error\": \"unable to connect to server\"}");
    IperfImporter imp = new IperfImporter(folder);
    Map<String, Point> m = imp.measure();
    Point p = m.get("network/127.0.0.1/iperf_bandwidth");
    assertEquals(Instant.ofEpochSecond(1795321538L), p.time());
    assertEquals(28481464850.798714 / 8, p.value(), 1e-3);
    assertEquals(1, m.size());
    assertTrue(Files.exists(folder.resolve("done/a.json")));
    assertTrue(Files.exists(folder.resolve("failed/b.json")));
    assertEquals(Map.of(), imp.measure());
  }

  @Test
  void network_rangeGetOnLoopback_measuresConnectAndBandwidth() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicReference<String> range = new AtomicReference<>();
    server.createContext(
        "/probe.bin",
        ex -> {
          range.set(ex.getRequestHeaders().getFirst("Range"));
          byte[] body = new byte[NetworkProbe.PROBE_BYTES];
          ex.getResponseHeaders().add("Content-Range", "bytes 0-65535/1000000");
          ex.sendResponseHeaders(206, body.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    try {
      // A fake ticker: every reading is 1 ms after the last, so the figures are exact.
      AtomicLong ticks = new AtomicLong();
      NetworkProbe p =
          new NetworkProbe(
              "10.0.0.9",
              URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/probe.bin"),
              Duration.ofSeconds(5),
              InstantSource.fixed(TestLines.NOW),
              () -> ticks.getAndAdd(1_000_000));
      Map<String, Point> m = p.measure();
      assertEquals("bytes=0-65535", range.get());
      assertEquals(0.001, m.get("network/10.0.0.9/connect_seconds").value(), 1e-12);
      assertEquals(65_536 / 0.001, m.get("network/10.0.0.9/bandwidth").value(), 1e-6);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void network_refusedConnection_isIOException() {
    NetworkProbe p =
        new NetworkProbe(
            "x",
            URI.create("http://127.0.0.1:1/p"),
            Duration.ofSeconds(2),
            InstantSource.system(),
            System::nanoTime);
    assertThrows(IOException.class, p::measure);
  }

  @Test
  void quartz_runsTaskOnItsIntervalAndStopsCleanly() throws Exception {
    CountDownLatch ran = new CountDownLatch(3);
    try (QuartzJobs jobs = new QuartzJobs("test-jobs", 1)) {
      jobs.every("tick", Duration.ofMillis(50), ran::countDown);
      jobs.every(
          "boom",
          Duration.ofMillis(50),
          () -> {
            throw new IllegalStateException("probe failed");
          });
      assertEquals(
          Map.of("tick", Duration.ofMillis(50), "boom", Duration.ofMillis(50)), jobs.intervals());
      jobs.start();
      assertTrue(ran.await(10, TimeUnit.SECONDS));
    }
  }
}
