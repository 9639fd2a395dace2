package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.braid.coalloc.journal.JournalLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get --client-capacity} (and {@code braid rank}'s) with a single file: the broker's
 * history forecasts and plan use it. The journal: replica A alone at 10 MB/s, then A and B together
 * twice at 5.5 MB/s each, filling a 12 MB/s client link (over 90% of it). Without the capacity A's
 * forecast is the median of 10, 5.5 and 5.5; with it A's shared samples are lower bounds (the link
 * held A back) and A stays at 10 MB/s, the plan's rate the link's 12 MB/s; a capacity below every
 * forecast bounds the plan.
 */
class GetClientCapacityTest {
  static final String A = "http://127.0.0.1:1111/data.bin";
  static final String B = "http://127.0.0.1:2222/data.bin";

  @TempDir Path dir;
  Path journal;
  Path metalink;

  static String line(String download, String url, Instant start, double rate, int replicas) {
    long busy = 2000;
    long bytes = (long) (rate * busy / 1000);
    String server = url.substring("http://".length(), url.indexOf("/data"));
    return JournalLine.delivery(download, url, server, "client.example", "/data.bin", "http")
        .bytes(64_000_000, bytes, bytes)
        .time(start, start.plusMillis(busy), busy)
        .requests(2, 0, 1)
        .sharing(replicas > 1 ? busy : 0, replicas, replicas)
        .streams(1)
        .result("ok")
        .build()
        .toLine();
  }

  @BeforeEach
  void journal() throws Exception {
    Instant t = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    List<String> lines = new ArrayList<>();
    lines.add(line("d1", A, t, 10e6, 1));
    for (int d = 2; d <= 3; d++) {
      Instant s = t.plusSeconds(60L * d);
      lines.add(line("d" + d, A, s, 5.5e6, 2));
      lines.add(line("d" + d, B, s, 5.5e6, 2));
    }
    journal = dir.resolve("journal.jsonl");
    Files.write(journal, lines);
    metalink = dir.resolve("data.meta4");
    Files.writeString(
        metalink,
        "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"data.bin\">"
            + "<size>64000000</size><url>"
            + B
            + "</url><url>"
            + A
            + "</url></file></metalink>");
  }

  /** The dry run's predicted rate of each replica, by URL. */
  double[] dryRun(String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "get",
                "--metalink",
                metalink.toString(),
                "--journal",
                journal.toString(),
                "--provider-port",
                "9",
                "--discovery-timeout",
                "2",
                "--dry-run",
                "--json",
                "-o",
                dir.resolve("out.bin").toString()));
    args.addAll(List.of(extra));
    GetCommandTest.Run r = GetCommandTest.run(args.toArray(new String[0]));
    assertEquals(0, r.code(), r.err());
    JsonNode n = new ObjectMapper().readTree(r.out());
    double[] out = new double[2];
    for (JsonNode rep : n.get("replicas")) {
      out[rep.get("url").asText().equals(A) ? 0 : 1] = rep.get("predictedRate").asDouble();
    }
    return out;
  }

  /** The plan's rates (A's, B's; 0 for a replica left out) as {@code get --dry-run} shows them. */
  @Test
  void get_clientCapacity_sharedSamplesAtTheFullLinkAreLowerBounds() throws Exception {
    double[] without = dryRun();
    assertEquals(5.5e6, without[0], 1e3);
    assertEquals(5.5e6, without[1], 1e3);
    double[] with = dryRun("--client-capacity", "96Mbit/s");
    assertEquals(12e6, with[0] + with[1], 1e3, "the plan fills the link");
    assertTrue(with[0] >= 12e6 - 5.5e6 - 1e3, "A planned at " + with[0]);
  }

  @Test
  void get_clientCapacityBelowTheForecasts_boundsThePlan() throws Exception {
    double[] bounded = dryRun("--client-capacity", "3MB/s");
    assertEquals(3e6, bounded[0] + bounded[1], 1e3);
  }

  @Test
  void rank_clientCapacity_withoutPlan_changesTheForecasts() throws Exception {
    GetCommandTest.Run r =
        GetCommandTest.run(
            "rank",
            "--metalink",
            metalink.toString(),
            "--journal",
            journal.toString(),
            "--provider-port",
            "9",
            "--timeout",
            "2",
            "--client-capacity",
            "12MB/s",
            "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode first = new ObjectMapper().readTree(r.out()).get(0);
    assertEquals(A, first.get("url").asText());
    assertEquals(10e6, first.get("predictedBandwidth").asDouble(), 1e3);
  }

  @Test
  void get_clientCapacityWithoutABroker_isAUsageError() {
    GetCommandTest.Run r =
        GetCommandTest.run(
            "get", "--client-capacity", "1Gbit/s", "-o", dir.resolve("x").toString(), A);
    assertEquals(2, r.code());
    assertEquals(
        "braid: --client-capacity is for the broker's forecasts and plan: give --metalink,"
            + " --catalog or -d DIR (and a --discovery-timeout above 0)\n",
        r.err());
  }

  @Test
  void get_clientCapacityNotARate_namesTheOption() {
    GetCommandTest.Run r =
        GetCommandTest.run(
            "get",
            "--metalink",
            metalink.toString(),
            "--no-journal",
            "--provider-port",
            "9",
            "--client-capacity",
            "fast",
            "--dry-run",
            "-o",
            dir.resolve("x").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("braid: --client-capacity: "), r.err());
  }
}
