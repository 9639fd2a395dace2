package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.braid.broker.Broker;
import org.braid.broker.RankedReplica;
import org.braid.broker.Request;
import org.braid.broker.catalog.Replica;
import org.braid.cli.BraidCli;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real information providers in this JVM, each over its own transfer log (one GridFTP, two
 * nginx) with different speeds; the broker ranks their replicas by what the logs show.
 */
class BrokerRankSystemTest {

  static final String REQUIREMENT = "other.AvgRDBandwidth > 5M/sec";
  static final DateTimeFormatter GFTP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSSSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  @TempDir static Path dir;
  static final List<Provider> providers = new ArrayList<>();

  /** Replica URLs: fast (GridFTP, ~20 MB/s), mid (nginx, ~8 MB/s), slow (nginx, ~3 MB/s), none. */
  static final String FAST = "gsiftp://127.0.0.1:2811/data/run42.h5";

  static final String MID = "http://127.0.0.1:18082/data/run42.h5";
  static final String SLOW = "http://127.0.0.1:18083/data/run42.h5";
  static final String NONE = "http://127.0.0.1:18084/data/run42.h5";
  static URI fastProvider;
  static URI midProvider;
  static URI slowProvider;

  @BeforeAll
  static void start() throws Exception {
    Instant t0 = Instant.now().minus(Duration.ofHours(3));
    SplittableRandom rnd = new SplittableRandom(5);
    StringBuilder gftp = new StringBuilder();
    StringBuilder mid = new StringBuilder();
    StringBuilder slow = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      long bytes = 5_000_000 + rnd.nextInt(20_000_000);
      Instant s = t0.plusSeconds(i * 120L);
      Instant e = s.plusNanos((long) (bytes / (20e6 * (0.9 + 0.2 * rnd.nextDouble())) * 1e9));
      gftp.append(gridftp(s, e, bytes, i));
      mid.append(nginx(s, bytes, 8e6 * (0.9 + 0.2 * rnd.nextDouble()), "10.0.0.82:80"));
      slow.append(nginx(s, bytes, 3e6 * (0.9 + 0.2 * rnd.nextDouble()), "10.0.0.83:80"));
    }
    fastProvider = provider("fast", gftp.toString(), LogFormat.GRIDFTP);
    midProvider = provider("mid", mid.toString(), LogFormat.NGINX);
    slowProvider = provider("slow", slow.toString(), LogFormat.NGINX);
  }

  /** A globus-gridftp-server transfer-log line: file /data/fI of BYTES retrieved from S to E. */
  static String gridftp(Instant s, Instant e, long bytes, int i) {
    return "DATE="
        + GFTP.format(e)
        + " HOST=fast PROG=globus-gridftp-server NL.EVNT=FTP_INFO START="
        + GFTP.format(s)
        + " USER=anonymous FILE=/data/f"
        + i
        + ".bin BUFFER=131072 BLOCK=262144 NBYTES="
        + bytes
        + " VOLUME=/ STREAMS=1 STRIPES=1 DEST=[10.1.2.3] TYPE=RETR CODE=226 TASKID=none\n";
  }

  static String nginx(Instant start, long bytes, double rate, String server) {
    double secs = bytes / rate;
    double end = start.toEpochMilli() / 1000.0 + secs;
    return String.format(
        Locale.ROOT,
        "%.3f %.3f 10.1.2.3 %s GET \"/data/f.bin\" 200 %d 95 \"-\"%n",
        end,
        secs,
        server,
        bytes);
  }

  static URI provider(String name, String log, LogFormat format) throws Exception {
    Path logFile = dir.resolve(name + ".log");
    Files.writeString(logFile, log);
    // Only the fast server publishes its volume's space (its GridFTP lines name VOLUME=/).
    ProviderConfig c =
        new ProviderConfig(
            name + ".example.org",
            null,
            dir.resolve(name + ".db"),
            null,
            null,
            new ProviderConfig.Http("127.0.0.1", 0),
            List.of(new ProviderConfig.Log(logFile, format, null)),
            null,
            name.equals("fast") ? List.of(new ProviderConfig.Volume("/", dir)) : null);
    Provider p = Provider.fromConfig(c, InstantSource.system());
    providers.add(p);
    p.refresh();
    p.start();
    return URI.create("http://127.0.0.1:" + p.httpPort() + "/v1/ads");
  }

  @AfterAll
  static void stop() throws Exception {
    for (Provider p : providers) {
      p.close();
    }
  }

  static List<String> args(String... extra) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "rank",
                "--no-journal",
                "--no-conventional",
                "--size",
                "20M",
                "--provider",
                "127.0.0.1:2811=" + fastProvider,
                "--provider",
                "127.0.0.1:18082=" + midProvider,
                "--provider",
                "127.0.0.1:18083=" + slowProvider));
    a.addAll(List.of(extra));
    return a;
  }

  static String[] run(int expectedExit, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    assertEquals(expectedExit, code, out + "\n" + err);
    return new String[] {out.toString(), err.toString()};
  }

  @Test
  void brokerSelect_ordersByLoggedPerformance_requirementFiltersSlow_noProviderListed() {
    try (Broker b =
        Broker.builder()
            .conventionalProviders(false)
            .provider("127.0.0.1:2811", fastProvider)
            .provider("127.0.0.1:18082", midProvider)
            .provider("127.0.0.1:18083", slowProvider)
            .build()) {
      List<Replica> reps =
          List.of(Replica.of(SLOW), Replica.of(NONE), Replica.of(MID), Replica.of(FAST));
      List<RankedReplica> all = b.select(Request.builder(reps).size(20_000_000).build());
      assertEquals(
          List.of(FAST, MID, SLOW, NONE),
          all.stream().map(r -> r.replica().uri().toString()).toList());
      assertTrue(
          all.get(0).predictedBandwidth() > 15e6 && all.get(0).predictedBandwidth() < 25e6,
          all.get(0).toString());
      assertTrue(all.get(1).predictedBandwidth() > 6e6 && all.get(1).predictedBandwidth() < 10e6);
      assertTrue(all.get(2).predictedBandwidth() > 2e6 && all.get(2).predictedBandwidth() < 4e6);
      assertEquals("provider", all.get(0).forecastSource());
      assertEquals("none", all.get(3).forecastSource());
      assertEquals("no information provider known for 127.0.0.1", all.get(3).discovery());

      List<RankedReplica> r =
          b.select(Request.builder(reps).size(20_000_000).requirements(REQUIREMENT).build());
      assertEquals(
          List.of(FAST, MID, SLOW, NONE),
          r.stream().map(x -> x.replica().uri().toString()).toList());
      assertTrue(r.get(0).matched() && r.get(1).matched());
      assertFalse(r.get(2).matched());
      assertTrue(
          r.get(2)
              .reason()
              .startsWith(
                  "request clause other.AvgRDBandwidth > 5000000 is false (other.AvgRDBandwidth = "),
          r.get(2).reason());
      assertFalse(r.get(3).matched());
      assertEquals(
          "request clause other.AvgRDBandwidth > 5000000 is undefined (other.AvgRDBandwidth = undefined)",
          r.get(3).reason());
    }
  }

  @Test
  void braidRank_table_and_json_sameOrder() throws Exception {
    String[] o = run(0, args("--requirements", REQUIREMENT, SLOW, NONE, MID, FAST));
    String[] lines = o[0].split("\n");
    assertEquals(
        "#    URL                                                     PREDICTED    ERR% SOURCE           RANK / REASON",
        lines[0]);
    assertTrue(lines[1].startsWith("1    " + FAST), lines[1]);
    assertTrue(lines[2].startsWith("2    " + MID), lines[2]);
    assertTrue(
        lines[3].startsWith("-    " + SLOW)
            && lines[3].contains(
                "rejected: request clause other.AvgRDBandwidth > 5000000 is false"),
        lines[3]);
    assertTrue(
        lines[4].startsWith("-    " + NONE)
            && lines[4].endsWith(
                "rejected: request clause other.AvgRDBandwidth > 5000000 is undefined (other.AvgRDBandwidth = undefined)"),
        lines[4]);
    assertEquals("     (no information provider known for 127.0.0.1)", lines[5]);
    assertEquals(6, lines.length);
    assertEquals("", o[1]);

    JsonNode j =
        new ObjectMapper()
            .readTree(
                run(0, args("--json", "--requirements", REQUIREMENT, SLOW, NONE, MID, FAST))[0]);
    assertEquals(4, j.size());
    assertEquals(FAST, j.get(0).get("url").asText());
    assertTrue(j.get(0).get("matched").asBoolean());
    assertEquals(j.get(0).get("rank").asDouble(), j.get(0).get("predictedBandwidth").asDouble());
    assertTrue(j.get(0).get("errorPct").isNumber());
    assertTrue(j.get(0).get("reason").isNull());
    assertEquals(MID, j.get(1).get("url").asText());
    assertEquals(SLOW, j.get(2).get("url").asText());
    assertFalse(j.get(2).get("matched").asBoolean());
    assertTrue(j.get(2).get("reason").asText().contains("is false"));
    assertEquals(NONE, j.get(3).get("url").asText());
    assertTrue(j.get(3).get("predictedBandwidth").isNull());
    assertTrue(j.get(3).get("errorPct").isNull());
  }

  @Test
  void braidRank_catalogAndMetalink_andPlan() throws Exception {
    Path cat = dir.resolve("cat.yaml");
    Files.writeString(
        cat,
        "files:\n  run42.h5:\n    size: 20000000\n    replicas:\n"
            + "      - "
            + SLOW
            + "\n      - url: "
            + MID
            + "\n        provider: "
            + midProvider
            + "\n      - "
            + FAST
            + "\n");
    List<String> planArgs =
        List.of(
            "rank",
            "--no-journal",
            "--no-conventional",
            "--json",
            "--plan",
            "--provider",
            "127.0.0.1:2811=" + fastProvider,
            "--catalog",
            cat.toString(),
            "run42.h5");
    JsonNode j = new ObjectMapper().readTree(run(0, planArgs)[0]);
    assertEquals(FAST, j.get("ranking").get(0).get("url").asText());
    assertEquals(MID, j.get("ranking").get(1).get("url").asText());
    assertTrue(
        j.get("ranking").get(2).get("discovery").asText().startsWith("no information provider"));
    JsonNode shares = j.get("plan").get("shares");
    assertEquals(2, shares.size());
    assertEquals(
        20_000_000, shares.get(0).get("bytes").asLong() + shares.get(1).get("bytes").asLong());
    assertTrue(shares.get(0).get("bytes").asLong() > shares.get(1).get("bytes").asLong());
    assertTrue(j.get("plan").get("bound").asDouble() > 20e6, j.toString());
    // A 5 MB/s client link caps the plan, whatever the replicas could deliver together.
    List<String> cappedArgs = new ArrayList<>(planArgs);
    cappedArgs.addAll(1, List.of("--client-capacity", "5MB/s"));
    JsonNode capped = new ObjectMapper().readTree(run(0, cappedArgs)[0]);
    assertEquals(5e6, capped.get("plan").get("bound").asDouble(), 1.0, capped.toString());
    assertTrue(capped.get("plan").get("rate").asDouble() <= 5e6 + 1, capped.toString());
    String badRate = run(2, List.of("rank", "--plan", "--client-capacity", "fast", FAST))[1];
    assertTrue(badRate.contains("--client-capacity: bad rate 'fast'"), badRate);
    // without --plan the capacity still bounds every forecast (and the journal's lower bounds)
    List<String> rankArgs = new ArrayList<>(cappedArgs);
    rankArgs.remove("--plan");
    JsonNode ranked = new ObjectMapper().readTree(run(0, rankArgs)[0]);
    for (JsonNode r : ranked) {
      if (!r.get("predictedBandwidth").isNull()) {
        assertTrue(r.get("predictedBandwidth").asDouble() <= 5e6 + 1, ranked.toString());
      }
    }

    Path ml = dir.resolve("run42.meta4");
    Files.writeString(
        ml,
        "<?xml version=\"1.0\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
            + " <file name=\"run42.h5\"><size>20000000</size>\n"
            + "  <url priority=\"1\">"
            + SLOW
            + "</url><url priority=\"2\">"
            + MID
            + "</url><url priority=\"3\">"
            + FAST
            + "</url>\n"
            + " </file>\n</metalink>\n");
    String[] o =
        run(
            0,
            List.of(
                "rank",
                "--no-journal",
                "--no-conventional",
                "--json",
                "--metalink",
                ml.toString(),
                "--provider",
                "127.0.0.1:2811=" + fastProvider,
                "--provider",
                "127.0.0.1:18082=" + midProvider,
                "--provider",
                "127.0.0.1:18083=" + slowProvider));
    JsonNode m = new ObjectMapper().readTree(o[0]);
    assertEquals(
        List.of(FAST, MID, SLOW),
        List.of(
            m.get(0).get("url").asText(),
            m.get(1).get("url").asText(),
            m.get(2).get("url").asText()));
  }

  @Test
  void braidRank_requirementOnAvailableSpace_keepsOnlyTheServerThatPublishesEnough()
      throws Exception {
    JsonNode j =
        new ObjectMapper()
            .readTree(
                run(
                    0,
                    args(
                        "--json",
                        "--requirements",
                        "other.AvailableSpace > FileSize",
                        SLOW,
                        MID,
                        FAST))[0]);
    assertEquals(FAST, j.get(0).get("url").asText());
    assertTrue(j.get(0).get("matched").asBoolean(), j.toString());
    for (int i = 1; i < 3; i++) {
      assertFalse(j.get(i).get("matched").asBoolean());
      assertEquals(
          "request clause other.AvailableSpace > FileSize is undefined (other.AvailableSpace = undefined, FileSize = 20000000)",
          j.get(i).get("reason").asText());
    }
    // More than the file system holds: nobody qualifies.
    long tooMuch = Files.getFileStore(dir).getTotalSpace() + 1;
    JsonNode none =
        new ObjectMapper()
            .readTree(
                run(0, args("--json", "--requirements", "other.AvailableSpace > " + tooMuch, FAST))[
                    0]);
    assertFalse(none.get(0).get("matched").asBoolean());
    assertTrue(
        none.get(0)
            .get("reason")
            .asText()
            .startsWith("request clause other.AvailableSpace > " + tooMuch + " is false"),
        none.toString());
  }

  @Test
  void braidRank_journal_historyKeptInAStoreBesideIt_outranksTheProviders() throws Exception {
    // This client saw the slow server deliver 30 MB/s (say, over a private link): its own history
    // wins.
    Path journal = dir.resolve("client/journal.jsonl");
    Files.createDirectories(journal.getParent());
    StringBuilder sb = new StringBuilder();
    Instant t = Instant.now().minus(Duration.ofHours(2));
    for (int i = 0; i < 20; i++) {
      Instant s = t.plusSeconds(i * 60L);
      sb.append(
              new org.braid.coalloc.journal.JournalLine(
                      "d" + i,
                      SLOW,
                      "127.0.0.1:18083",
                      "me",
                      "/data/run42.h5",
                      0,
                      30_000_000,
                      30_000_000,
                      s,
                      s.plusSeconds(1),
                      1,
                      "http",
                      "ok")
                  .toLine())
          .append('\n');
    }
    Files.writeString(journal, sb);
    List<String> a = new ArrayList<>(args("--json", SLOW, MID, FAST));
    a.set(a.indexOf("--no-journal"), "--journal=" + journal);
    JsonNode j = new ObjectMapper().readTree(run(0, a)[0]);
    assertEquals(SLOW, j.get(0).get("url").asText(), j.toString());
    assertEquals("history", j.get(0).get("source").asText(), j.toString());
    assertTrue(Files.isRegularFile(dir.resolve("client/history.db")));
    // Again: the flows come from the store; the answer is the same.
    assertEquals(SLOW, new ObjectMapper().readTree(run(0, a)[0]).get(0).get("url").asText());
  }

  @Test
  void braidRank_badInput_oneLineErrors() throws Exception {
    Path hostile = dir.resolve("evil.meta4");
    Files.writeString(
        hostile,
        "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
            + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url>http://h/&x;</url></file></metalink>");
    assertEquals(
        "braid: " + hostile + ":1: DOCTYPE declarations are refused (entities, external DTDs)\n",
        run(2, List.of("rank", "--metalink", hostile.toString()))[1]);
    Path trav = dir.resolve("trav.meta4");
    Files.writeString(
        trav,
        "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"../../x\"><url>http://h/a</url></file></metalink>");
    assertTrue(
        run(2, List.of("rank", "--metalink", trav.toString()))[1].startsWith(
            "braid: " + trav + ":1: file name must not contain"));
    assertEquals(
        "braid: argument 1: invalid URL ht!tp://x/y: scheme must be one of http, https, gsiftp, ftp, file\n",
        run(2, List.of("rank", "ht!tp://x/y"))[1].replace(
            "Illegal character in scheme name",
            "scheme must be one of http, https, gsiftp, ftp, file"));
    assertEquals(
        "braid: give replica URLs, --metalink FILE or --catalog FILE NAME (exactly one)\n",
        run(2, List.of("rank"))[1]);
    assertTrue(
        run(2, List.of("rank", "--requirements", "other.x >", MID))[1].startsWith(
            "braid: requirements: "));
    assertEquals(
        "braid: " + dir.resolve("nope.json") + ": no such file\n",
        run(2, List.of("rank", "--catalog", dir.resolve("nope.json").toString(), "x"))[1]);
  }

  @Test
  void braidRank_help_listsOptions() {
    String out = run(0, List.of("rank", "--help"))[0];
    assertTrue(out.startsWith("Usage: braid rank "), out);
    for (String o :
        List.of(
            "--metalink",
            "--catalog",
            "--requirements",
            "--rank",
            "--size",
            "--json",
            "--plan",
            "--provider",
            "--timeout",
            "--client-capacity")) {
      assertTrue(out.contains(o), o);
    }
    assertTrue(run(0, List.of("--help"))[0].contains("rank"));
  }
}
