package org.braid.infoprovider.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.junit.jupiter.api.Test;

class StatsAccumulatorTest {

  private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

  static TransferRecord rec(String peer, long size, double seconds, int endSecond, String code) {
    Instant end = T0.plusSeconds(endSecond);
    Instant start = end.minusNanos((long) (seconds * 1e9));
    return new TransferRecord(
        "h", peer, "/f", size, start, end, 1, -1, -1, Operation.READ, "/v", code, "gsiftp");
  }

  @Test
  void result_groupsBySizeClassAndComputesMoments() {
    StatsAccumulator acc = new StatsAccumulator();
    acc.add(rec("p", 10_000_000, 1, 10, "226")); // 10 MB/s
    acc.add(rec("p", 20_000_000, 1, 30, "226")); // 20 MB/s, last
    acc.add(rec("p", 40_000_000, 1, 20, "226")); // 40 MB/s
    acc.add(rec("p", 5_000_000, 1, 40, "426")); // failed: not in figures
    acc.add(rec("p", 100_000_000, 2, 50, "226")); // 100M class, 50 MB/s
    List<TransferStats> r = acc.result();
    assertEquals(3, r.size());
    TransferStats all = r.get(0);
    assertEquals(SizeClass.ALL, all.key().sizeClass());
    assertEquals(4, all.count());
    assertEquals(1, all.failed());
    TransferStats small = r.get(1);
    assertEquals(new StatsKey("/v", "p", Operation.READ, SizeClass.C10M), small.key());
    assertEquals(3, small.count());
    assertEquals(70_000_000, small.bytes());
    assertEquals(10e6, small.minBandwidth(), 1e-6);
    assertEquals(40e6, small.maxBandwidth(), 1e-6);
    assertEquals(70e6 / 3, small.meanBandwidth(), 1e-6);
    assertEquals(20e6, small.medianBandwidth(), 1e-6);
    double m = 70e6 / 3;
    double sd =
        Math.sqrt(
            ((10e6 - m) * (10e6 - m) + (20e6 - m) * (20e6 - m) + (40e6 - m) * (40e6 - m)) / 2);
    assertEquals(sd, small.stddevBandwidth(), 1e-6);
    assertEquals(20e6, small.lastBandwidth(), 1e-6);
    assertEquals(T0.plusSeconds(30), small.lastTime());
    assertEquals(SizeClass.C100M, r.get(2).key().sizeClass());
    assertEquals(0, r.get(2).stddevBandwidth());
  }

  @Test
  void forecast_bandwidthFollowsNetworkProbe_regressionOnNetworkIsChosen() {
    java.util.Random rnd = new java.util.Random(3);
    StatsAccumulator acc = new StatsAccumulator();
    org.braid.predictors.Series.Builder net =
        org.braid.predictors.Series.builder("network/p/bandwidth");
    for (int i = 0; i < 40; i++) {
      double n = 1e6 + rnd.nextDouble() * 9e6;
      net.add(T0.plusSeconds(600L * i - 10), n);
      long size = 10_000_000;
      // bandwidth = 2 x the network probe just before: seconds = size / (2 n)
      Instant end = T0.plusSeconds(600L * i);
      Instant start = end.minusNanos((long) (size / (2 * n) * 1e9));
      acc.add(
          new TransferRecord(
              "h", "p", "/f", size, start, end, 1, -1, -1, Operation.READ, "/v", "226", "gsiftp"));
    }
    ForecastInputs in =
        new ForecastInputs(
            org.braid.predictors.Forecaster.builder().build(),
            java.util.Map.of("p", net.build()),
            org.braid.predictors.Series.empty("disk"),
            T0.plusSeconds(600L * 40),
            ForecastInputs.DEFAULT_MAX_HISTORY);
    TransferStats s = acc.result(in).get(1);
    assertEquals(SizeClass.C10M, s.key().sizeClass());
    org.braid.predictors.Forecast f = s.forecast();
    org.junit.jupiter.api.Assertions.assertTrue(f.isAvailable(), f.toString());
    org.junit.jupiter.api.Assertions.assertTrue(f.chosen().startsWith("G+N"), f.toString());
    org.junit.jupiter.api.Assertions.assertTrue(f.errorPct() < 5, f.toString());
    // Without the network series the same history gives a univariate forecast with a large error.
    org.braid.predictors.Forecast uni =
        acc.result(ForecastInputs.univariate(T0.plusSeconds(600L * 40))).get(1).forecast();
    org.junit.jupiter.api.Assertions.assertTrue(
        uni.errorPct() > f.errorPct() * 3, uni + " vs " + f);
  }

  @Test
  void forecast_sizeClassGroup_comesFromTheWholeLogOfThePeer() {
    java.util.Random rnd = new java.util.Random(11);
    StatsAccumulator acc = new StatsAccumulator();
    org.braid.predictors.Series.Builder whole = org.braid.predictors.Series.builder("p/read");
    double level = 20e6;
    int second = 0;
    for (int i = 0; i < 120; i++) {
      if (i % 8 == 0) {
        level = 5e6 + rnd.nextDouble() * 35e6; // the path's rate, shared by every size
      }
      // the last four transfers are large, and meet a new rate the small class has not seen
      long size = i >= 116 || rnd.nextBoolean() ? 100_000_000L : 10_000_000L;
      double bw = (i >= 116 ? 60e6 : level) * (0.95 + rnd.nextDouble() * 0.1);
      second += 60;
      TransferRecord r = rec("p", size, size / bw, second, "226");
      acc.add(r);
      whole.add(r.end(), r.bandwidth(), size);
    }
    Instant at = T0.plusSeconds(second + 60);
    ForecastInputs in =
        new ForecastInputs(
            org.braid.predictors.Forecaster.builder().build(),
            java.util.Map.of(),
            org.braid.predictors.Series.empty("disk"),
            at,
            ForecastInputs.DEFAULT_MAX_HISTORY);
    List<TransferStats> r = acc.result(in);
    TransferStats small = r.get(1);
    assertEquals(SizeClass.C10M, small.key().sizeClass());
    org.braid.predictors.Forecast f = small.forecast();
    // exactly the forecaster over the peer's whole log, for the small class's last size
    org.braid.predictors.Forecast direct =
        org.braid.predictors.Forecaster.builder().build().forecast(whole.build(), 10_000_000L, at);
    assertEquals(direct, f);
    assertEquals("published", f.predictor());
    // the small class's own last transfers were at the old rate; the whole log saw the new one
    org.junit.jupiter.api.Assertions.assertTrue(small.lastBandwidth() < 30e6, small.toString());
    org.junit.jupiter.api.Assertions.assertTrue(f.value() > 45e6, f.toString());
    // the error is the small class's: scored over its transfers only
    long smallCount = small.count();
    org.junit.jupiter.api.Assertions.assertTrue(
        f.scored() < smallCount && f.scored() >= smallCount - 1, f + " of " + smallCount);
  }

  @Test
  void sizeClass_boundariesAreDecimalMegabytes() {
    assertEquals(SizeClass.C10M, SizeClass.of(49_999_999));
    assertEquals(SizeClass.C100M, SizeClass.of(50_000_000));
    assertEquals(SizeClass.C500M, SizeClass.of(250_000_000));
    assertEquals(SizeClass.C1G, SizeClass.of(750_000_000));
  }

  @Test
  void median_evenCount_isMeanOfMiddleTwo() {
    StatsAccumulator acc = new StatsAccumulator();
    acc.add(rec("p", 1_000, 1, 1, "226"));
    acc.add(rec("p", 3_000, 1, 2, "226"));
    assertEquals(2_000, acc.result().get(1).medianBandwidth(), 1e-9);
  }
}
