package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.braid.broker.catalog.Replica;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.braid.predictors.Forecaster;
import org.braid.predictors.Predictor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * History forecasts from this client's journal: one sample per download and replica, tiny ones left
 * out, shared samples at a saturated link lifted, and forecasts kept within what was measured.
 */
class HistoryForecastTest {

  static final Instant T0 = BrokerTest.T0;
  static final List<String> MIRRORS = List.of("m8.example:80", "m4.example:80", "m2.example:80");
  static final double[] RATES = {8e6, 4e6, 2e6};
  static final long FILE = 28_000_000;
  static final long BLOCK = 2_000_000;
  static final long TAIL = 262_144;

  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T0);

  /** A request line as Braid 0.x wrote it (version 1), times in milliseconds. */
  static String v1(String download, String server, long offset, long bytes, Instant s, Instant e) {
    return String.format(
        Locale.ROOT,
        "{\"v\":1,\"download\":\"%s\",\"url\":\"http://%s/data/run.h5\",\"server\":\"%s\","
            + "\"peer\":\"client.example\",\"path\":\"/data/run.h5\",\"offset\":%d,\"bytes\":%d,"
            + "\"fileSize\":%d,\"start\":\"%s\",\"end\":\"%s\",\"streams\":1,\"protocol\":\"http\","
            + "\"result\":\"ok\"}%n",
        download,
        server,
        server,
        offset,
        bytes,
        FILE,
        s,
        e);
  }

  /**
   * The journal in the 0.x format: six co-allocated downloads of a 28 MB file from mirrors
   * at 8, 4 and 2 MB/s, one 2 MB request after the other per mirror; the slow mirror ends each
   * download with a 262,144-byte tail request that takes 0.000 s, and in the last download that
   * tail is all it fetched.
   */
  static String oldJournal() {
    StringBuilder sb = new StringBuilder();
    for (int d = 0; d < 6; d++) {
      long offset = 0;
      Instant start = T0.minusSeconds(3600 - d * 60L);
      String id = "d" + d;
      for (int m = 0; m < 3; m++) {
        long share = (long) (FILE * RATES[m] / 14e6);
        if (m == 2) {
          share -= TAIL;
        }
        long done = 0;
        Instant t = start;
        while (done < share && !(d == 5 && m == 2)) {
          long n = Math.min(BLOCK, share - done);
          Instant e = t.plusMillis(Math.round(n / RATES[m] * 1000));
          sb.append(v1(id, MIRRORS.get(m), offset, n, t, e));
          offset += n;
          done += n;
          t = e;
        }
        if (m == 2) {
          sb.append(v1(id, MIRRORS.get(m), FILE - TAIL, TAIL, t, t));
        }
      }
    }
    return sb.toString();
  }

  Broker.Builder broker(Path journal) {
    return Broker.builder().journal(journal).conventionalProviders(false).clock(clock);
  }

  static Request request() {
    List<Replica> reps = new ArrayList<>();
    for (int m = 2; m >= 0; m--) {
      reps.add(Replica.of("http://" + MIRRORS.get(m) + "/data/run.h5"));
    }
    return Request.builder(reps).size(FILE).build();
  }

  @Test
  void oldJournal_tailRequestOf0Seconds_isNoSample_rankingAndPlanFollowTheTrueRates()
      throws Exception {
    // Regression for issue 16: this journal made the 2 MB/s mirror rank first at 19,339 MB/s.
    String text = oldJournal();
    double worst = 0;
    for (String line : text.split("\n")) {
      JournalLine l = JournalLine.parse(line);
      TransferRecord r = record(l);
      worst = Math.max(worst, r.bandwidth());
    }
    assertTrue(worst > 1e9, "the journal holds a request line 'faster' than 1 GB/s: " + worst);
    Path journal = dir.resolve("journal.jsonl");
    Files.writeString(journal, text);
    try (Broker b = broker(journal).build()) {
      Plan plan = b.plan(request());
      List<RankedReplica> ranked = plan.ranking();
      for (int m = 0; m < 3; m++) {
        RankedReplica r = ranked.get(m);
        assertEquals("http://" + MIRRORS.get(m) + "/data/run.h5", r.replica().uri().toString());
        assertEquals("history", r.forecastSource());
        assertNull(r.forecastNote());
        // within the 15% (the slow mirror's tail bytes count, its 0.000 s do not: +7%)
        assertEquals(RATES[m], r.predictedBandwidth(), RATES[m] * 0.15, r.toString());
      }
      assertEquals(3, plan.shares().size(), plan.toString());
      assertEquals(14e6, plan.rate(), 14e6 * 0.15);
      // the last download's slow mirror moved only its tail: 5 samples, not 6
      ClientHistory.View v =
          new ClientHistory(
                  journal, null, Forecaster.builder().build(), clock, Double.POSITIVE_INFINITY)
              .view();
      assertEquals(5, v.byEndpoint().get("http://m2.example:80").size());
      assertEquals(6, v.byEndpoint().get("http://m8.example:80").size());
    }
  }

  static TransferRecord sample(
      String server, Instant start, double seconds, double rate, int replicas, long sharedMs) {
    long bytes = (long) (rate * seconds);
    JournalLine l =
        JournalLine.delivery(
                "d" + start.toEpochMilli(),
                "http://" + server + "/f",
                server,
                "client.example",
                "/f",
                "http")
            .bytes(100_000_000, bytes, bytes)
            .time(start, start.plusMillis((long) (seconds * 1000)), (long) (seconds * 1000))
            .sharing(sharedMs, replicas, replicas)
            .build();
    return record(l);
  }

  @Test
  void index_tinyOrInstantDeliveries_areNoSamples_requestLinesMergeWithOverlapCountedOnce()
      throws Exception {
    HistoryIndex index = new HistoryIndex();
    Instant s = T0;
    List<TransferRecord> records = new ArrayList<>();
    // two overlapping 1-second requests of 4 MB each over 1.5 s: 8 MB / 1.5 s, not 8 MB / 2 s
    records.add(v1Record("a", "x.example:80", 0, 4_000_000, s, s.plusMillis(1000)));
    records.add(
        v1Record("a", "x.example:80", 4_000_000, 4_000_000, s.plusMillis(500), s.plusMillis(1500)));
    // 100 kB in 0.5 s: too few bytes; 5 MB in 100 ms: too short
    records.add(v1Record("b", "x.example:80", 0, 100_000, s, s.plusMillis(500)));
    // 300 kB in 0.6 s: a slow replica's share, a sample
    records.add(v1Record("e", "z.example:80", 0, 300_000, s, s.plusMillis(600)));
    records.add(v1Record("c", "x.example:80", 0, 5_000_000, s, s.plusMillis(100)));
    records.add(v1Record("c", "y.example:80", 0, 5_000_000, s, s.plusMillis(100)));
    index.add(records);
    List<TransferRecord> x = index.byEndpoint().get("http://x.example:80");
    assertEquals(1, x.size());
    assertEquals(8e6 / 1.5, x.get(0).bandwidth(), 1);
    assertNull(index.byEndpoint().get("http://y.example:80"));
    assertEquals(5e5, index.byEndpoint().get("http://z.example:80").get(0).bandwidth(), 1);
    assertEquals(2, index.all().size());
  }

  /** The record the store keeps for a journal line (as the infoprovider's journal parser makes). */
  static TransferRecord record(JournalLine j) {
    return new TransferRecord(
        j.server(),
        j.peer(),
        j.path(),
        j.received(),
        j.start(),
        j.end(),
        j.streams(),
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        TransferRecord.Operation.READ,
        "/",
        j.result(),
        j.protocol(),
        j);
  }

  static TransferRecord v1Record(
      String download, String server, long offset, long bytes, Instant s, Instant e)
      throws Exception {
    return record(JournalLine.parse(v1(download, server, offset, bytes, s, e).trim()));
  }

  /** A predictor that extrapolates wildly: ten times the last value. */
  static final Predictor WILD =
      new Predictor() {
        @Override
        public String name() {
          return "WILD";
        }

        @Override
        public State start() {
          return new State() {
            double last = Double.NaN;

            @Override
            public void add(long t, double v, long size) {
              last = v;
            }

            @Override
            public double predict(long t, long size) {
              return 10 * last;
            }
          };
        }
      };

  @Test
  void forecast_aboveEverythingMeasured_isClampedAndFlagged() {
    HistoryForecaster f =
        new HistoryForecaster(
            Forecaster.builder().predictor(WILD).trainingSize(2).build(), Double.POSITIVE_INFINITY);
    List<TransferRecord> mine = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mine.add(sample("x.example:80", T0.plusSeconds(60L * i), 4, 3e6 + i * 1e5, 1, 0));
    }
    HistoryForecaster.Result r = f.forecast("http://x.example:80", mine, mine, 1_000_000, T0);
    assertEquals(3.4e6, r.forecast().value(), 1);
    assertEquals(
        "forecast 34.00 MB/s clamped to 3.40 MB/s, the most ever measured from"
            + " http://x.example:80",
        r.clamp());
    // with a client capacity below that: clamped to the capacity
    HistoryForecaster c =
        new HistoryForecaster(Forecaster.builder().predictor(WILD).trainingSize(2).build(), 2e6);
    HistoryForecaster.Result rc = c.forecast("http://x.example:80", mine, mine, 1_000_000, T0);
    assertEquals(2e6, rc.forecast().value(), 1);
    assertTrue(rc.clamp().endsWith("this client's capacity"), rc.clamp());
  }

  @Test
  void forecast_shortHistory_medianOfThree_followsASlowdownWithinTwoDownloads() {
    HistoryForecaster f =
        new HistoryForecaster(Forecaster.builder().build(), Double.POSITIVE_INFINITY);
    List<TransferRecord> mine = new ArrayList<>();
    mine.add(sample("x.example:80", T0, 2, 8e6, 1, 0));
    HistoryForecaster.Result one = f.forecast("k", mine, mine, 0, T0);
    assertEquals(8e6, one.forecast().value(), 1);
    assertEquals(0, one.forecast().scored(), "one sample: no error estimate");
    for (int i = 1; i < 4; i++) {
      mine.add(sample("x.example:80", T0.plusSeconds(60L * i), 2, 8e6 * (1 + 0.01 * i), 1, 0));
    }
    HistoryForecaster.Result four = f.forecast("k", mine, mine, 0, T0.plusSeconds(600));
    assertEquals("MED3", four.forecast().predictor());
    assertEquals(3, four.forecast().scored(), "its own one-step error over the samples");
    assertEquals(8e6 * 1.02, four.forecast().value(), 1);
    mine.add(sample("x.example:80", T0.plusSeconds(300), 2, 1e6, 1, 0));
    assertTrue(f.forecast("k", mine, mine, 0, T0.plusSeconds(600)).forecast().value() > 7e6);
    mine.add(sample("x.example:80", T0.plusSeconds(360), 2, 1e6, 1, 0));
    assertEquals(1e6, f.forecast("k", mine, mine, 0, T0.plusSeconds(600)).forecast().value(), 1);
  }

  @Test
  void censored_sharedSampleAtTheSaturatedLinksFairShare_countsAsALowerBound() {
    // client link 10 MB/s; a alone did 8 MB/s, then a and b together filled the link at 5 MB/s
    // each, twice: a's 5 MB/s are lower bounds and its forecast stays 8 MB/s
    HistoryForecaster f = new HistoryForecaster(Forecaster.builder().build(), 10e6);
    TransferRecord a1 = sample("a.example:80", T0, 2, 8e6, 1, 0);
    TransferRecord a2 = sample("a.example:80", T0.plusSeconds(60), 2, 5e6, 2, 2000);
    TransferRecord b2 = sample("b.example:80", T0.plusSeconds(60), 2, 5e6, 2, 2000);
    TransferRecord a3 = sample("a.example:80", T0.plusSeconds(120), 2, 5e6, 2, 2000);
    TransferRecord b3 = sample("b.example:80", T0.plusSeconds(120), 2, 5e6, 2, 2000);
    List<TransferRecord> all = List.of(a1, a2, b2, a3, b3);
    List<TransferRecord> a = List.of(a1, a2, a3);
    assertTrue(f.censored(a2, all));
    assertArrayEquals(new double[] {8e6, 8e6, 8e6}, f.values(a, all), 1);
    assertEquals(8e6, f.forecast("a", a, all, 0, T0).forecast().value(), 1);
    // the link had room (b slow on its own): a's shared sample is its own rate
    TransferRecord a4 = sample("a.example:80", T0.plusSeconds(180), 2, 5e6, 2, 2000);
    TransferRecord b4 = sample("b.example:80", T0.plusSeconds(180), 2, 1e6, 2, 2000);
    assertFalse(f.censored(a4, List.of(a4, b4)));
    // b at the fair share but a above it: b was held back by itself (max-min fairness)
    TransferRecord a5 = sample("a.example:80", T0.plusSeconds(240), 2, 6e6, 2, 2000);
    TransferRecord b5 = sample("b.example:80", T0.plusSeconds(240), 2, 4e6, 2, 2000);
    assertFalse(f.censored(b5, List.of(a5, b5)));
    assertTrue(f.censored(a5, List.of(a5, b5)));
    // without a known capacity nothing is censored: a link limit cannot be told from a server
    HistoryForecaster unknown =
        new HistoryForecaster(Forecaster.builder().build(), Double.POSITIVE_INFINITY);
    assertArrayEquals(new double[] {8e6, 5e6, 5e6}, unknown.values(a, all), 1);
    assertEquals(5e6, unknown.forecast("a", a, all, 0, T0).forecast().value(), 1);
  }

  /**
   * With a long history (the training size of 15 and more), the broker's forecaster is the
   * published rule itself, not the median of three: after a replica slowed from 8 MB/s to 1 MB/s,
   * its forecast still falls below a steady 2 MB/s replica's within three downloads, and settles
   * near the new rate.
   */
  @Test
  void forecast_longHistory_publishedRule_followsASlowdownWithinThreeDownloads() {
    HistoryForecaster f =
        new HistoryForecaster(Forecaster.builder().build(), Double.POSITIVE_INFINITY);
    assertEquals(Forecaster.PUBLISHED_NAME, Forecaster.builder().build().name());
    List<TransferRecord> fast = new ArrayList<>();
    List<TransferRecord> steady = new ArrayList<>();
    SplittableRandom noise = new SplittableRandom(16);
    int n = 20;
    for (int i = 0; i < n; i++) {
      Instant t = T0.plusSeconds(600L * i);
      fast.add(sample("fast.example:80", t, 1, 8e6 * (1 + 0.05 * noise.nextGaussian()), 1, 0));
      steady.add(sample("two.example:80", t, 2, 2e6 * (1 + 0.05 * noise.nextGaussian()), 1, 0));
    }
    Instant now = T0.plusSeconds(600L * n);
    HistoryForecaster.Result before = f.forecast("fast", fast, fast, 8_000_000, now);
    assertTrue(before.trained(), "the published rule made it");
    assertEquals(8e6, before.forecast().value(), 0.1 * 8e6);
    double two = f.forecast("two", steady, steady, 8_000_000, now).forecast().value();
    int downloads = 0;
    double value = before.forecast().value();
    List<Double> path = new ArrayList<>();
    while (value >= two && downloads < 3) {
      Instant t = T0.plusSeconds(600L * (n + downloads));
      fast.add(sample("fast.example:80", t, 8, 1e6 * (1 + 0.05 * noise.nextGaussian()), 1, 0));
      downloads++;
      value = f.forecast("fast", fast, fast, 8_000_000, t.plusSeconds(60)).forecast().value();
      path.add(value);
    }
    assertTrue(value < two, "after " + downloads + " slow downloads: " + path + " vs " + two);
    for (int i = downloads; i < 6; i++) {
      Instant t = T0.plusSeconds(600L * (n + i));
      fast.add(sample("fast.example:80", t, 8, 1e6 * (1 + 0.05 * noise.nextGaussian()), 1, 0));
    }
    Instant later = T0.plusSeconds(600L * (n + 6));
    assertEquals(1e6, f.forecast("fast", fast, fast, 8_000_000, later).forecast().value(), 0.15e6);
  }
}
