package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.braid.cli.BraidCli;
import org.braid.cli.mirror.Mirror;
import org.braid.coalloc.journal.JournalLine;
import org.braid.testkit.Loopback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 16's learning loop, for real: three local mirrors throttled at 8, 4 and 2 MB/s (the demo's
 * token-bucket mirror, shared by all connections of a mirror), {@code braid get} from all three a
 * few times, then {@code braid rank --plan} from that journal alone: every forecast within 15% of
 * what the mirror really delivered (measured at the mirror, {@link MirrorMeter}), the order right,
 * the plan all three; the next {@code braid get --metalink} downloads from the plan's replicas.
 * Then the fastest mirror slows to 1 MB/s: within three downloads the ranking puts it last.
 */
class LearningLoopSystemTest {

  private static final Logger LOG = LoggerFactory.getLogger(LearningLoopSystemTest.class);

  static final double[] RATES = {8e6, 4e6, 2e6};
  static final int SIZE = 8_000_000;

  /**
   * Each mirror's real rate, measured at the mirror: its served bytes polled every 2 ms; in each
   * download, the bytes served between the first and the last time they grew, over that time. On a
   * quiet machine it is the throttle's rate; on a loaded one the mirrors fall short of it, and the
   * forecasts must follow what they really deliver.
   */
  static final class MirrorMeter {
    final List<Mirror> mirrors;
    final long[] bytes;
    final long[] nanos;
    final long[] firstT;
    final long[] firstB;
    final long[] lastT;
    final long[] lastB;
    final Thread poller;
    volatile boolean stop;

    MirrorMeter(List<Mirror> mirrors) {
      int n = mirrors.size();
      this.mirrors = mirrors;
      this.bytes = new long[n];
      this.nanos = new long[n];
      this.firstT = new long[n];
      this.firstB = new long[n];
      this.lastT = new long[n];
      this.lastB = new long[n];
      Arrays.fill(firstT, -1);
      this.poller = new Thread(this::poll, "mirror-meter");
      poller.setDaemon(true);
      poller.start();
    }

    private void poll() {
      long[] last = new long[mirrors.size()];
      for (int i = 0; i < last.length; i++) {
        last[i] = mirrors.get(i).servedBytes();
      }
      while (!stop) {
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          return;
        }
        long now = System.nanoTime();
        synchronized (this) {
          for (int i = 0; i < last.length; i++) {
            long b = mirrors.get(i).servedBytes();
            if (b > last[i]) {
              if (firstT[i] < 0) {
                firstT[i] = now;
                firstB[i] = b;
              }
              lastT[i] = now;
              lastB[i] = b;
            }
            last[i] = b;
          }
        }
      }
    }

    /** Ends a download: what each mirror served in it is added up. */
    synchronized void downloadEnded() {
      for (int i = 0; i < bytes.length; i++) {
        if (firstT[i] >= 0 && lastT[i] > firstT[i]) {
          bytes[i] += lastB[i] - firstB[i];
          nanos[i] += lastT[i] - firstT[i];
        }
        firstT[i] = -1;
      }
    }

    synchronized double rate(int m) {
      return bytes[m] * 1e9 / nanos[m];
    }

    /** Stops polling; the rates stay. */
    void stop() throws InterruptedException {
      stop = true;
      poller.join();
    }
  }

  @TempDir Path dir;
  final List<Mirror> mirrors = new ArrayList<>();
  Path journal;
  Path metalink;
  String providerPort;

  @BeforeEach
  void start() throws Exception {
    byte[] data = new byte[SIZE];
    new SplittableRandom(16).nextBytes(data);
    Path file = dir.resolve("run.h5");
    Files.write(file, data);
    StringBuilder urls = new StringBuilder();
    for (double r : RATES) {
      Mirror m = Mirror.builder(file).rate(r).start();
      mirrors.add(m);
      urls.append("<url>").append(m.uri()).append("</url>");
    }
    journal = dir.resolve("client/journal.jsonl");
    metalink = dir.resolve("run.meta4");
    // the slowest first: the catalog's order must not be what ranks them
    Files.writeString(
        metalink,
        "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"run.h5\"><size>"
            + SIZE
            + "</size>"
            + urls.toString()
                .replaceAll("(<url>[^<]*</url>)(<url>[^<]*</url>)(<url>[^<]*</url>)", "$3$2$1")
            + "</file></metalink>");
    // no information provider answers: the journal is all the broker knows
    providerPort = String.valueOf(Loopback.freePort());
  }

  @AfterEach
  void stop() {
    mirrors.forEach(Mirror::close);
  }

  String url(int m) {
    return mirrors.get(m).uri().toString();
  }

  static String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(0, code, String.join(" ", args) + "\n" + out + "\n" + err);
    return out.toString();
  }

  /** {@code braid get} from the three URLs given (no broker), recorded in the journal. */
  void getAll() {
    run(
        "get",
        "--journal",
        journal.toString(),
        "--no-resume",
        "-o",
        dir.resolve("out-" + System.nanoTime()).toString(),
        url(2),
        url(1),
        url(0));
  }

  /** {@code braid get --metalink}: the broker plans from the journal; the report as JSON. */
  JsonNode getPlanned() throws Exception {
    return new ObjectMapper()
        .readTree(
            run(
                "get",
                "--metalink",
                metalink.toString(),
                "--journal",
                journal.toString(),
                "--provider-port",
                providerPort,
                "--no-resume",
                "--json",
                "-o",
                dir.resolve("out-" + System.nanoTime()).toString()));
  }

  /** {@code braid rank --plan --json} from the journal. */
  JsonNode rank() throws Exception {
    return new ObjectMapper()
        .readTree(
            run(
                "rank",
                "--metalink",
                metalink.toString(),
                "--journal",
                journal.toString(),
                "--provider-port",
                providerPort,
                "--plan",
                "--json"));
  }

  /** The ranking's URLs, best first. */
  static List<String> order(JsonNode rank) {
    List<String> out = new ArrayList<>();
    rank.get("ranking").forEach(r -> out.add(r.get("url").asText()));
    return out;
  }

  /** Predicted bandwidth by URL. */
  static Map<String, Double> predicted(JsonNode rank) {
    Map<String, Double> out = new LinkedHashMap<>();
    rank.get("ranking")
        .forEach(r -> out.put(r.get("url").asText(), r.get("predictedBandwidth").asDouble()));
    return out;
  }

  /** Bytes each server received in the journal's latest download (version 2 lines). */
  Map<String, Long> lastDownload() throws Exception {
    List<JournalLine> lines = new ArrayList<>();
    for (String l : Files.readAllLines(journal)) {
      lines.add(JournalLine.parse(l));
    }
    String last = lines.get(lines.size() - 1).download();
    Map<String, Long> out = new HashMap<>();
    for (JournalLine l : lines) {
      if (l.download().equals(last)) {
        assertEquals(2, l.version(), l.toLine());
        out.put(l.url(), l.received());
      }
    }
    return out;
  }

  @Test
  void downloads_teachTheRanking_andThePlanUsesTheFasterMirrors_thenFollowsASlowdown()
      throws Exception {
    long t0 = System.nanoTime();
    double[] real = new double[3];
    MirrorMeter meter = new MirrorMeter(mirrors);
    try {
      for (int i = 0; i < 3; i++) {
        getAll();
        Thread.sleep(20);
        meter.downloadEnded();
      }
    } finally {
      meter.stop();
    }
    for (int m = 0; m < 3; m++) {
      real[m] = meter.rate(m);
    }
    JsonNode rank = rank();
    Map<String, Double> p = predicted(rank);
    StringBuilder table = new StringBuilder();
    for (int m = 0; m < 3; m++) {
      table.append(
          String.format(
              Locale.ROOT,
              "%n  mirror throttled at %.1f MB/s: delivered %.2f MB/s, forecast %.2f MB/s",
              RATES[m] / 1e6,
              real[m] / 1e6,
              p.get(url(m)) / 1e6));
    }
    LOG.info("after 3 downloads:{}", table);
    String why = table + "\n" + rank + "\n" + Files.readString(journal);
    assertEquals(List.of(url(0), url(1), url(2)), order(rank), why);
    for (int m = 0; m < 3; m++) {
      JsonNode r = rank.get("ranking").get(m);
      assertEquals("history", r.get("source").asText(), r.toString());
      assertTrue(Math.abs(p.get(url(m)) / real[m] - 1) <= 0.15, "off by more than 15%:" + why);
    }
    JsonNode plan = rank.get("plan");
    assertEquals(3, plan.get("shares").size(), plan.toString());
    assertEquals(url(0), plan.get("shares").get(0).get("url").asText());
    assertTrue(
        plan.get("shares").get(0).get("fraction").asDouble()
            > plan.get("shares").get(1).get("fraction").asDouble());

    // the next download follows the plan: all three mirrors deliver, the fastest the most
    JsonNode report = getPlanned();
    LOG.info("planned download: {}", report);
    Map<String, Long> got = lastDownload();
    assertEquals(3, got.size(), got.toString());
    assertTrue(
        got.get(url(0)) > got.get(url(1)) && got.get(url(1)) > got.get(url(2)), got.toString());
    // faster than the fastest mirror alone (Braid 0.x: from the slowest alone, a quarter of it)
    double rate = report.get("throughput").asDouble();
    assertTrue(rate > real[0], "planned download at " + rate / 1e6 + " MB/s");

    // the fastest mirror slows to 1 MB/s: within three downloads it ranks last
    mirrors.get(0).setRate(1e6);
    int downloads = 0;
    List<String> now = order(rank());
    while (!now.equals(List.of(url(1), url(2), url(0))) && downloads < 3) {
      getPlanned();
      downloads++;
      JsonNode r = rank();
      LOG.info("after slow-down download {}: {}", downloads, predicted(r));
      now = order(r);
    }
    assertEquals(
        List.of(url(1), url(2), url(0)),
        now,
        "after " + downloads + " downloads\n" + Files.readString(journal));
    LOG.info(
        "loop: ranking followed the slow-down after {} downloads; test took {} s",
        downloads,
        String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
  }
}
