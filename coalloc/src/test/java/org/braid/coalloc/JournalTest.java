package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.braid.cli.mirror.Mirror;
import org.braid.coalloc.journal.JournalLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
  private static final Instant T0 = Instant.EPOCH;

  @TempDir Path dir;

  @Test
  void line_hasExactFieldsInOrder() {
    Journal j = new Journal(dir.resolve("j"), "ab12cd34");
    List<BlockEvent> events =
        List.of(
            new BlockEvent(0, 0, 100, 350, 200, 1_000_000, 2_500_000_000L, "ok"),
            new BlockEvent(0, 1, 400, 600, 200, 2_000_000_000L, 3_000_000_000L, "ok"),
            new BlockEvent(1, 0, 350, 400, 50, 500_000_000L, 1_500_000_000L, "ok"));
    Deliveries.Delivery d = Deliveries.of(events, 2).get(0);
    String line =
        j.line(
            d,
            new Journal.Outcome(URI.create("https://example.org/data/f.bin"), null),
            1000,
            Instant.parse("2026-11-22T04:00:00Z"));
    assertTrue(
        line.matches(
            "\\{\"v\":2,\"download\":\"ab12cd34\",\"url\":\"https://example.org/data/f.bin\","
                + "\"server\":\"example.org:443\",\"peer\":\"[^\"]+\",\"path\":\"/data/f.bin\","
                + "\"fileSize\":1000,\"bytes\":400,\"received\":450,"
                + "\"start\":\"2026-11-22T04:00:00.001Z\",\"end\":\"2026-11-22T04:00:03.000Z\","
                + "\"busyMs\":2999,\"requests\":2,\"failures\":0,\"connections\":2,"
                + "\"sharedMs\":1000,\"replicas\":2,\"flows\":2,\"streams\":1,"
                + "\"protocol\":\"https\",\"result\":\"ok\"\\}"),
        line);
  }

  @Test
  void line_droppedReplicaOrOnlyFailures_isAnError() {
    Journal j = new Journal(dir.resolve("j"), "x");
    List<BlockEvent> events =
        List.of(new BlockEvent(0, 0, 0, 5, 0, 0, 1_000_000, "error: http://h/f: HTTP 503"));
    Deliveries.Delivery d = Deliveries.of(events, 1).get(0);
    String failed = j.line(d, new Journal.Outcome(URI.create("http://h:8080/f"), null), 10, T0);
    assertTrue(failed.contains("\"server\":\"h:8080\""), failed);
    assertTrue(failed.contains("\"failures\":1"), failed);
    assertTrue(failed.endsWith("\"result\":\"error: http://h/f: HTTP 503\"}"), failed);
    String dropped =
        j.line(d, new Journal.Outcome(URI.create("http://h:8080/f"), "too slow"), 10, T0);
    assertTrue(dropped.endsWith("\"result\":\"error: too slow\"}"), dropped);
  }

  /** Overlapping requests count once, waits not at all, instantaneous ones add bytes only. */
  @Test
  void deliveries_busyIsTheUnionOfSpans_andSharingIsMeasured() {
    List<BlockEvent> events =
        List.of(
            // replica 0: two connections, [0, 2 s] and [1 s, 3 s]: busy 3 s, not 4 s
            new BlockEvent(0, 0, 0, 100, 100, 0, 2_000_000_000L, "ok"),
            new BlockEvent(0, 1, 100, 200, 100, 1_000_000_000L, 3_000_000_000L, "ok"),
            // then a pause and an instantaneous tail: no time, its bytes count
            new BlockEvent(0, 0, 200, 300, 100, 5_000_000_000L, 5_000_000_000L, "ok"),
            // replica 1 busy [1.5 s, 4 s]: shares 1.5 s with replica 0; lost a race: received only
            new BlockEvent(1, 0, 300, 400, 0, 1_500_000_000L, 4_000_000_000L, "ok"));
    List<Deliveries.Delivery> d = Deliveries.of(events, 3);
    assertEquals(2, d.size()); // replica 2 made no request: no record
    Deliveries.Delivery a = d.get(0);
    assertEquals(300, a.bytes());
    assertEquals(3_000_000_000L, a.busyNanos());
    assertEquals(1_500_000_000L, a.sharedNanos());
    assertEquals(5_000_000_000L, a.endNanos());
    assertEquals(2, a.connections());
    assertEquals(2, a.replicas());
    assertEquals(3, a.flows());
    Deliveries.Delivery b = d.get(1);
    assertEquals(0, b.bytes());
    assertEquals(100, b.received());
    assertEquals(2_500_000_000L, b.busyNanos());
    assertEquals(1_500_000_000L, b.sharedNanos());
    assertEquals(1, b.connections());
    assertEquals(3, b.flows());
  }

  /**
   * The wait for a first byte that every request of a replica paid (its shortest) is not transfer:
   * without it, a replica sent more requests would measure slower. A first byte read later than
   * that keeps its extra wait (it may have arrived earlier than it was read).
   */
  @Test
  void deliveries_busyLeavesOutTheReplicasShortestFirstByteWait() {
    long ms = 1_000_000L;
    List<BlockEvent> events =
        List.of(
            // replica 0, one after another: [0, 120 ms] with its first byte at 20 ms, then
            // [120, 240 ms] first byte at 140 ms (20 ms too), then [240, 400 ms] first byte at
            // 300 ms (60 ms: 20 ms of it taken off)
            new BlockEvent(0, 0, 0, 100, 100, 0, 120 * ms, "ok", 1, 20 * ms),
            new BlockEvent(0, 0, 100, 200, 100, 120 * ms, 240 * ms, "ok", 1, 140 * ms),
            new BlockEvent(0, 0, 200, 300, 100, 240 * ms, 400 * ms, "ok", 1, 300 * ms),
            // replica 1: first bytes not known (another range source): whole spans, as before
            new BlockEvent(1, 0, 300, 400, 100, 0, 100 * ms, "ok"),
            // replica 2: a request that failed before any byte keeps its span
            new BlockEvent(2, 0, 400, 400, 0, 0, 50 * ms, "error: refused"));
    List<Deliveries.Delivery> d = Deliveries.of(events, 3);
    assertEquals(400 * ms - 3 * 20 * ms, d.get(0).busyNanos());
    assertEquals(0, d.get(0).startNanos());
    assertEquals(400 * ms, d.get(0).endNanos());
    assertEquals(100 * ms, d.get(1).busyNanos());
    assertEquals(50 * ms, d.get(2).busyNanos());
  }

  @Test
  void defaultPath_followsEnvironment() {
    assertEquals(
        Path.of("/j.jsonl"), Journal.defaultPath(Map.of("BRAID_JOURNAL", "/j.jsonl"), "/h"));
    assertEquals(
        Path.of("/x/braid/journal.jsonl"),
        Journal.defaultPath(Map.of("XDG_DATA_HOME", "/x"), "/h"));
    assertEquals(
        Path.of("/h/.local/share/braid/journal.jsonl"), Journal.defaultPath(Map.of(), "/h"));
  }

  @Test
  void download_appendsOneLinePerReplica_withItsRate() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", 6_000_000, 5);
    Path journal = dir.resolve("sub/journal.jsonl");
    try (Mirror a = Mirror.builder(src).rate(4e6).start();
        Mirror b = Mirror.builder(src).rate(2e6).start()) {
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), b.uri()))
              .output(dir.resolve("out"))
              .journal(journal)
              .build()
              .run();
      List<String> lines = Files.readAllLines(journal);
      assertEquals(2, lines.size(), String.join("\n", lines));
      long written = 0;
      double[] nominal = {4e6, 2e6};
      double[] rates = new double[2];
      for (int i = 0; i < 2; i++) {
        JournalLine l = JournalLine.parse(lines.get(i));
        assertEquals(2, l.version());
        assertEquals(r.id(), l.download());
        assertEquals(6_000_000, l.fileSize());
        assertEquals("/data.bin", l.path());
        assertEquals(r.replicas().get(i).uri().toString(), l.url());
        assertEquals(r.replicas().get(i).receivedBytes(), l.received());
        assertEquals(2, l.replicas());
        assertTrue(l.sharedMillis() > 0 && l.sharedMillis() <= l.busyMillis(), lines.get(i));
        // At most the token bucket's rate; less by request latency and start-up, and by a lot on
        // a machine so busy that the mirrors' threads oversleep: a fresh-clone CI run on 2 cores
        // once measured 1.52 MB/s for the 4 MB/s mirror. The mirror's own count (servedBytes over
        // busyNanos) is no better reference: a request the client cancelled keeps it "busy" until
        // its handler notices. The other way, the client's busy time starts at a request's first
        // byte read, so a client thread starved while the kernel buffered the mirror's bytes
        // measures too fast (2.8x was seen with four builds running beside the test). So wide
        // bounds here; the system tests check accuracy, and the order of the two rates below is
        // what this test is about.
        assertTrue(
            l.rate() > 0.3 * nominal[i] && l.rate() < 1.5 * nominal[i],
            "rate " + l.rate() + " of a " + nominal[i] + " B/s mirror: " + lines.get(i));
        rates[i] = l.rate();
        written += l.bytes();
      }
      assertEquals(6_000_000, written);
      assertTrue(rates[0] > rates[1], "the 4 MB/s mirror measured faster than the 2 MB/s one");
    }
  }
}
