package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dataset jobs over HTTP servers on 127.0.0.1 that count what they are asked: one request per small
 * file (no probe), connections reused across files, and the per-file guards (tries, low-speed and
 * rate limits, Retry-After).
 */
class DatasetHttpTest {
  @TempDir Path dir;
  private final Map<String, byte[]> data = new ConcurrentHashMap<>();
  private final List<HostileHttpServer> servers = new ArrayList<>();
  private final List<HostileHttpServer.Request> seen = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(HostileHttpServer::close);
  }

  /** A server answering well for every file, recording each request. */
  private HostileHttpServer good() throws Exception {
    return serving((r, x) -> x.serve(r, data.get(r.target().substring(1)), ""));
  }

  /** A server that sends whole files at about 1.6 MB/s (16 KiB every 10 ms) and ranges at once. */
  private HostileHttpServer slowWholeFiles() throws Exception {
    return serving(
        (r, x) -> {
          byte[] b = data.get(r.target().substring(1));
          if (r.range() != null) {
            x.serve(r, b, "");
            return;
          }
          x.write("HTTP/1.1 200 OK\r\nContent-Length: " + b.length + "\r\n\r\n");
          for (int at = 0; at < b.length; at += 16 * 1024) {
            x.write(Arrays.copyOfRange(b, at, Math.min(b.length, at + 16 * 1024)));
            Thread.sleep(10);
          }
        });
  }

  private HostileHttpServer serving(HostileHttpServer.Handler h) throws Exception {
    HostileHttpServer s =
        HostileHttpServer.start(
            (r, x) -> {
              seen.add(r);
              h.handle(r, x);
            });
    servers.add(s);
    return s;
  }

  /** {@code n} files of {@code size} bytes with their SHA-256, named f0.bin... */
  private List<DatasetFile> files(int n, int size, List<HostileHttpServer> from) throws Exception {
    SplittableRandom rnd = new SplittableRandom(7);
    List<DatasetFile> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[size];
      rnd.nextBytes(b);
      String name = "d" + (i % 3) + "/f" + i + ".bin";
      data.put(name, b);
      List<URI> uris = new ArrayList<>();
      for (HostileHttpServer s : from) {
        uris.add(s.uri(name));
      }
      String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
      out.add(
          DatasetFile.of(name, size, uris).withChecksums(List.of(new Checksum("sha-256", sha))));
    }
    return out;
  }

  private Dataset.Builder job(List<DatasetFile> files) {
    return Dataset.builder().files(files).outputDirectory(dir.resolve("out")).journal(null);
  }

  private void assertArrived(List<DatasetFile> files) throws Exception {
    for (DatasetFile f : files) {
      assertArrayEquals(data.get(f.path()), Files.readAllBytes(dir.resolve("out/" + f.path())));
    }
  }

  @Test
  void smallFiles_oneRequestEach_noProbe_connectionsReusedUpToConcurrency() throws Exception {
    List<HostileHttpServer> three = List.of(good(), good(), good());
    List<DatasetFile> files = files(90, 3000, three);
    DatasetReport r = job(files).concurrency(4).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    assertEquals(90, seen.size(), "one request per file");
    for (HostileHttpServer.Request q : seen) {
      assertEquals("GET", q.method());
      assertNull(q.range(), "a whole-file GET, no probe or range: " + q);
    }
    for (HostileHttpServer s : three) {
      assertTrue(s.connections() <= 4, s.connections() + " connections for -j 4");
    }
    int connections = three.stream().mapToInt(HostileHttpServer::connections).sum();
    assertTrue(connections < 30, connections + " connections for 90 files: not reused");
  }

  @Test
  void aSlowFileAtTheTail_isFinishedByAnIdleServer_fromWhereTheSlowOneStops() throws Exception {
    // the first server sends whole files at about 1.6 MB/s, the second is fast
    HostileHttpServer slow = slowWholeFiles();
    // the fast server's own requests: the slow one may also be asked for a range (the rest of
    // its part when its whole-file answer ends before the cut)
    List<HostileHttpServer.Request> toFast = new CopyOnWriteArrayList<>();
    HostileHttpServer fast =
        serving(
            (r, x) -> {
              toFast.add(r);
              x.serve(r, data.get(r.target().substring(1)), "");
            });
    List<DatasetFile> files = files(1, 1_500_000, List.of(slow, fast));
    DatasetReport r = job(files).concurrency(2).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    // the fast server took the rest from a cut; done with it first, it may take a second piece of
    // what the slow one still had, up to that cut: its ranges end at the file's end and join up
    long from = Long.MAX_VALUE;
    boolean toTheEnd = false;
    for (HostileHttpServer.Request q : toFast) {
      if (q.range() != null) {
        from = Math.min(from, q.range()[0]);
        toTheEnd |= q.range()[1] == 1_499_999;
      }
    }
    assertTrue(from > 0 && from < 1_500_000, "the fast server sent the rest: " + seen);
    assertTrue(toTheEnd, "to the file's end: " + seen);
    Map<String, Long> bytes = r.files().get(0).servers();
    assertEquals(2, bytes.size(), bytes.toString());
    assertEquals(1_500_000, bytes.values().stream().mapToLong(Long::longValue).sum());
    assertEquals(1_500_000 - from, bytes.get(DatasetServer.key(fast.uri("x"), "x")));
    assertEquals(1, r.count("fetched"));
  }

  @Test
  void aRequestStalledAtTheTail_stopsWhereItIs_andAnIdleServerFetchesTheRest() throws Exception {
    // the first server sends 500,000 bytes of a whole file, then nothing for 10 s (ranges at once)
    HostileHttpServer stalling =
        serving(
            (r, x) -> {
              byte[] b = data.get(r.target().substring(1));
              if (r.range() != null) {
                x.serve(r, b, "");
                return;
              }
              x.write("HTTP/1.1 200 OK\r\nContent-Length: " + b.length + "\r\n\r\n");
              x.write(Arrays.copyOf(b, 500_000));
              Thread.sleep(10_000);
              x.write(Arrays.copyOfRange(b, 500_000, b.length));
            });
    HostileHttpServer fast = good();
    List<DatasetFile> files = files(1, 600_000, List.of(stalling, fast));
    DatasetReport r = job(files).concurrency(2).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    // by its rate before the stall the first server would have kept some of the rest, and the
    // file waited for it; stalled, it stops where it is
    Map<String, Long> bytes = r.files().get(0).servers();
    assertEquals(500_000, bytes.get(DatasetServer.key(stalling.uri("x"), "x")), bytes.toString());
    assertEquals(100_000, bytes.get(DatasetServer.key(fast.uri("x"), "x")), bytes.toString());
  }

  @Test
  void aTailPieceSlowerThanTheLowSpeedLimit_isAbandoned_andItsOwnerFetchesTheRange()
      throws Exception {
    // the first server sends whole files at about 1.6 MB/s (ranges at once); the second, idle,
    // is given the rest of the file at the tail but trickles it
    HostileHttpServer slow = slowWholeFiles();
    List<long[]> ranges = new CopyOnWriteArrayList<>();
    HostileHttpServer trickling =
        serving(
            (r, x) -> {
              byte[] b = data.get(r.target().substring(1));
              long[] q = r.range();
              if (q == null) {
                x.serve(r, b, "");
                return;
              }
              ranges.add(q);
              long to = Math.min(q[1], b.length - 1);
              x.write(
                  "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes "
                      + q[0]
                      + "-"
                      + to
                      + "/"
                      + b.length
                      + "\r\nContent-Length: "
                      + (to - q[0] + 1)
                      + "\r\n\r\n");
              x.trickle(Arrays.copyOfRange(b, (int) q[0], (int) to + 1), Duration.ofMillis(50));
            });
    List<DatasetFile> files = files(1, 1_500_000, List.of(slow, trickling));
    DatasetReport r =
        job(files).concurrency(2).lowSpeedLimit(100_000, Duration.ofMillis(800)).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    assertTrue(!ranges.isEmpty() && ranges.get(0)[0] > 0, "the idle server was given a piece");
    assertTrue(r.servers().stream().anyMatch(x -> x.failures() == 1), DatasetReports.text(r, 10));
    Map<String, Long> bytes = r.files().get(0).servers();
    assertEquals(1_500_000, bytes.get(DatasetServer.key(slow.uri("x"), "x")), bytes.toString());
  }

  @Test
  void serverWithoutContentLength_fileStillArrives_byProbeAndRange() throws Exception {
    HostileHttpServer s =
        serving(
            (r, x) -> {
              byte[] b = data.get(r.target().substring(1));
              if (r.range() == null) { // whole file: no length, ends by closing the connection
                x.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
                x.write(b);
                x.close();
              } else {
                x.serve(r, b, "");
              }
            });
    List<DatasetFile> files = files(3, 5000, List.of(s));
    DatasetReport r = job(files).concurrency(1).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
  }

  @Test
  void maxTries_boundsTheRoundsAndDropsTheServer() throws Exception {
    HostileHttpServer bad =
        serving((r, x) -> x.write("HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"));
    List<DatasetFile> files = files(1, 1000, List.of(bad));
    DatasetReport r = job(files).maxTries(2).build().run();
    assertEquals(1, r.failures().size());
    assertEquals(2, bad.requests(), "two tries");
    assertTrue(r.failures().get(0).error().contains("500"), r.failures().get(0).error());
    assertTrue(r.servers().get(0).dropped().contains("2 failures in a row"), r.toString());
  }

  @Test
  void retryAfterLongerThanAllowed_dropsTheServer_andTheFilesComeFromAnother() throws Exception {
    HostileHttpServer busy =
        serving(
            (r, x) ->
                x.write("HTTP/1.1 503 Busy\r\nRetry-After: 3600\r\nContent-Length: 0\r\n\r\n"));
    HostileHttpServer ok = good();
    List<DatasetFile> files = files(6, 2000, List.of(busy, ok));
    DatasetReport r =
        job(files)
            .concurrency(1)
            .predictedRates(List.of(new PredictedRate(busy.uri(""), 1e9)))
            .maxRetryAfter(Duration.ofSeconds(10))
            .build()
            .run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    assertEquals(1, busy.requests(), "asked once, then not used");
    DatasetReplicaReport b =
        r.servers().stream()
            .filter(x -> busy.uri("").toString().startsWith(x.server()))
            .findFirst()
            .orElseThrow();
    assertTrue(b.dropped().contains("--max-retry-after"), b.dropped());
  }

  @Test
  void lowSpeedLimit_abandonsATricklingServer_andTheFileComesFromAnother() throws Exception {
    HostileHttpServer slow =
        serving(
            (r, x) -> {
              byte[] b = data.get(r.target().substring(1));
              x.write("HTTP/1.1 200 OK\r\nContent-Length: " + b.length + "\r\n\r\n");
              x.trickle(b, Duration.ofMillis(50));
            });
    HostileHttpServer ok = good();
    List<DatasetFile> files = files(1, 4000, List.of(slow, ok));
    long t0 = System.nanoTime();
    DatasetReport r =
        job(files)
            .predictedRates(List.of(new PredictedRate(slow.uri(""), 1e9)))
            .lowSpeedLimit(1000, Duration.ofMillis(800))
            .build()
            .run();
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    assertEquals(1, slow.requests());
    assertTrue(seconds < 10, "abandoned in " + seconds + " s");
    assertTrue(r.servers().stream().anyMatch(x -> x.failures() == 1), DatasetReports.text(r, 10));
  }

  @Test
  void limitRate_appliesToEachFile() throws Exception {
    List<DatasetFile> files = files(2, 30_000, List.of(good()));
    long t0 = System.nanoTime();
    DatasetReport r = job(files).concurrency(2).maxBytesPerSecond(20_000).build().run();
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    // each file at most 20 kB/s: 30 kB take at least about 1.4 s, both files at once
    assertTrue(seconds >= 1.3, "two 30 kB files at 20 kB/s each in " + seconds + " s");
  }

  @Test
  void aPlanArrivingWhileTheJobRuns_reordersTheFilesNotStarted_andRatesTheServers()
      throws Exception {
    HostileHttpServer s = good();
    List<DatasetFile> files = files(12, 1000, List.of(s));
    List<String> reversed = new ArrayList<>();
    for (DatasetFile f : files) {
      reversed.add(0, f.path());
    }
    CompletableFuture<DatasetOrder> plan = new CompletableFuture<>();
    Dataset job = job(files).concurrency(1).planArriving(plan).build();
    plan.complete(new DatasetOrder(reversed, List.of(new PredictedRate(s.uri(""), 5e6))));
    DatasetReport r = job.run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertArrived(files);
    List<String> asked = new ArrayList<>();
    for (HostileHttpServer.Request q : seen) {
      asked.add(q.target().substring(1));
    }
    // at most the first files went out before the plan was applied; then the plan's order
    assertTrue(asked.indexOf(reversed.get(0)) < asked.indexOf(reversed.get(6)), asked.toString());
    assertEquals(5e6, r.servers().get(0).predictedRate(), 1, r.toString());
  }
}
