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
 * token-bucket mirror, shared by all connections of a mirror), {@code braid get} from all three
 * three times, then {@code braid rank --plan} from that journal alone: every forecast within 15% of
 * what the replica delivered (the median over the downloads of the rate each download's own report
 * measured, not the journal) and never above 1.15 times what the mirror served (measured at the
 * mirror, {@link MirrorMeter}), the order right, the plan all three; the next {@code braid get
 * --metalink} downloads from the plan's replicas, the fastest delivering the most, faster than the
 * fastest alone. Then the fastest mirror slows to 1 MB/s: within three downloads the ranking puts
 * it last. On a quiet machine the rates are the throttles'; on a loaded one both fall short of them
 * and the forecasts must follow what the mirrors really deliver.
 */
class LearningLoopSystemTest {

  private static final Logger LOG = LoggerFactory.getLogger(LearningLoopSystemTest.class);

  static final double[] RATES = {8e6, 4e6, 2e6};
  static final int SIZE = 8_000_000;

  /**
   * Each mirror's rate as it served it ({@link Mirror#servedBytes()} over {@link
   * Mirror#busyNanos()}, the time it was handling requests) in each download; the median over the
   * downloads.
   */
  static final class MirrorMeter {
    final List<Mirror> mirrors;
    final List<List<Double>> rates = new ArrayList<>();
    final long[] bytes;
    final long[] nanos;

    MirrorMeter(List<Mirror> mirrors) {
      this.mirrors = mirrors;
      this.bytes = new long[mirrors.size()];
      this.nanos = new long[mirrors.size()];
      for (int i = 0; i < mirrors.size(); i++) {
        rates.add(new ArrayList<>());
      }
      downloadStarts();
    }

    void downloadStarts() {
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = mirrors.get(i).servedBytes();
        nanos[i] = mirrors.get(i).busyNanos();
      }
    }

    void downloadEnded() {
      for (int i = 0; i < bytes.length; i++) {
        long b = mirrors.get(i).servedBytes() - bytes[i];
        long t = mirrors.get(i).busyNanos() - nanos[i];
        if (t > 0) {
          rates.get(i).add(b * 1e9 / t);
        }
      }
    }

    double rate(int m) {
      return median(rates.get(m));
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

  List<String> urls() {
    return List.of(url(0), url(1), url(2));
  }

  static List<String> mb(List<Double> rates) {
    return rates.stream().map(x -> String.format(Locale.ROOT, "%.2f", x / 1e6)).toList();
  }

  static String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(0, code, String.join(" ", args) + "\n" + out + "\n" + err);
    return out.toString();
  }

  /** {@code braid get} from the three URLs given (no broker), recorded in the journal. */
  JsonNode getAll() throws Exception {
    return new ObjectMapper()
        .readTree(
            run(
                "get",
                "--journal",
                journal.toString(),
                "--no-resume",
                "--json",
                "-o",
                dir.resolve("out-" + System.nanoTime()).toString(),
                url(2),
                url(1),
                url(0)));
  }

  static double median(List<Double> values) {
    List<Double> r = new ArrayList<>(values);
    r.sort(null);
    int n = r.size();
    return n % 2 == 1 ? r.get(n / 2) : (r.get(n / 2 - 1) + r.get(n / 2)) / 2;
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
    // the truth: what each replica delivered in each download as the download measured it (its
    // report, not the journal), and what each mirror served as the mirror measured it
    List<List<Double>> measured = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    MirrorMeter meter = new MirrorMeter(mirrors);
    for (int i = 0; i < 3; i++) {
      meter.downloadStarts();
      JsonNode report = getAll();
      meter.downloadEnded();
      for (JsonNode r : report.get("replicas")) {
        measured.get(urls().indexOf(r.get("url").asText())).add(r.get("meanRate").asDouble());
      }
    }
    double[] real = new double[3];
    JsonNode rank = rank();
    Map<String, Double> p = predicted(rank);
    StringBuilder table = new StringBuilder();
    for (int m = 0; m < 3; m++) {
      real[m] = median(measured.get(m));
      table.append(
          String.format(
              Locale.ROOT,
              "%n  mirror throttled at %.1f MB/s: served %s MB/s, delivered %s MB/s (median %.2f),"
                  + " forecast %.2f MB/s",
              RATES[m] / 1e6,
              mb(meter.rates.get(m)),
              mb(measured.get(m)),
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
      assertTrue(
          p.get(url(m)) <= 1.15 * meter.rate(m), "faster than the mirror ever served:" + why);
    }
    JsonNode plan = rank.get("plan");
    LOG.info("plan: {}", plan);
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
