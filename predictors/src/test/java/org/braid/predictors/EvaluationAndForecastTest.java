package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class EvaluationAndForecastTest {

  @Test
  void score_usesThePapersNormalizedError() {
    Series s = TestSeries.of(10, 20);
    Score sc = Evaluation.score(s, new double[] {12, 16}, 0);
    // (|10-12| + |20-16|) / (2 * 15) * 100 = 20%
    assertEquals(20.0, sc.errorPct(), 1e-9);
    assertEquals(2, sc.count());
    assertEquals(15.0, sc.meanMeasured(), 1e-9);
    // per-prediction errors 13.33 and 26.67: sd 9.428, t(0.975, 1) = 12.706
    assertEquals(12.7062047 * 9.4280904 / Math.sqrt(2), sc.ciPct(), 1e-4);
  }

  @Test
  void score_skipsUnpredictedAndTrainingSamples() {
    Series s = TestSeries.of(5, 10, 20, 30);
    Score sc = Evaluation.score(s, new double[] {Double.NaN, 0, 20, 27}, 2);
    assertEquals(2, sc.count());
    assertEquals(3.0 / (2 * 25) * 100, sc.errorPct(), 1e-9);
  }

  @Test
  void evaluate_replaysInTimeOrderWithoutLookingAhead() {
    // LV on 1, 2, 4, 8 after a training of 1: predictions 1, 2, 4 for 2, 4, 8
    Score sc = Evaluation.evaluate(Predictors.lastValue(), TestSeries.of(1, 2, 4, 8), 1);
    assertEquals(3, sc.count());
    assertEquals((1 + 2 + 4) / (3 * (14.0 / 3)) * 100, sc.errorPct(), 1e-9);
  }

  @Test
  void evaluate_emptySeries_scoresNothing() {
    assertEquals(Score.NONE, Evaluation.evaluate(Predictors.mean(), Series.empty("e"), 15));
    assertEquals(1, Evaluation.oneStep(Predictors.mean(), Series.empty("e")).length);
  }

  @Test
  void forecast_emptyHistory_returnsInsufficient() {
    Forecast f = Forecaster.builder().build().forecast(Series.empty("e"), 1, Instant.EPOCH);
    assertFalse(f.isAvailable());
    assertEquals(Forecast.Status.INSUFFICIENT_HISTORY, f.status());
    assertEquals(0.0, f.value());
    assertEquals("published", f.predictor());
  }

  @Test
  void forecast_belowTrainingSize_returnsInsufficient() {
    Forecaster fc = Forecaster.builder().predictor(Predictors.mean()).build();
    double[] v = new double[14];
    java.util.Arrays.fill(v, 3);
    assertFalse(fc.forecast(TestSeries.of(v), 1, Instant.EPOCH).isAvailable());
    double[] w = new double[15];
    java.util.Arrays.fill(w, 3);
    Forecast f = fc.forecast(TestSeries.of(w), 1, Instant.ofEpochSecond(20));
    assertTrue(f.isAvailable());
    assertEquals(3.0, f.value(), 1e-12);
    assertEquals(0.0, f.errorPct(), 1e-12);
    assertEquals(14, f.scored());
  }

  @Test
  void forecast_tripletMatchesTheReplayedError() {
    Series s = TestSeries.of(10, 12, 9, 11, 10, 13, 8, 10, 11, 12, 9, 10, 11, 10, 12, 9);
    Forecast f =
        Forecaster.builder()
            .predictor(Predictors.lastValue())
            .build()
            .forecast(s, 1, Instant.ofEpochSecond(100));
    Score expected = Evaluation.score(s, Evaluation.oneStep(Predictors.lastValue(), s), 1);
    assertEquals(9.0, f.value());
    assertEquals(expected.errorPct(), f.errorPct(), 1e-12);
    assertEquals(expected.ciPct(), f.ciPct(), 1e-12);
    assertTrue(f.low() < f.value() && f.value() < f.high());
  }

  @Test
  void forecast_neverNaN_forDefaultOnNoisyData() {
    java.util.Random r = new java.util.Random(7);
    Series.Builder b = Series.builder("r");
    for (int i = 0; i < 300; i++) {
      b.add(Instant.ofEpochSecond(i * 37L), r.nextDouble() * 1e8, 1 + r.nextInt(2_000_000_000));
    }
    Forecast f =
        Forecaster.builder()
            .build()
            .forecast(b.build(), 123_456_789, Instant.ofEpochSecond(12_000));
    assertTrue(f.isAvailable());
    assertTrue(
        Double.isFinite(f.value()) && Double.isFinite(f.errorPct()) && Double.isFinite(f.ciPct()));
  }

  @Test
  void sample_rejectsNaNInfiniteAndNegativeValues() {
    Instant t = Instant.ofEpochSecond(5);
    assertEquals(
        "sample value must be finite and not negative: NaN at 1970-01-01T00:00:05Z",
        assertThrows(IllegalArgumentException.class, () -> new Sample(t, Double.NaN, 1))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Sample(t, Double.POSITIVE_INFINITY, 1));
    assertThrows(IllegalArgumentException.class, () -> new Sample(t, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new Sample(t, 1, -2));
    assertThrows(NullPointerException.class, () -> new Sample(null, 1, 1));
  }

  @Test
  void series_rejectsTimestampsOutOfOrder_namingTheSample() {
    Series.Builder b = Series.builder("s").add(Instant.ofEpochSecond(10), 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> b.add(Instant.ofEpochSecond(5), 2));
    assertEquals(
        "series 's': sample 1 at 1970-01-01T00:00:05Z is earlier than sample 0 at 1970-01-01T00:00:10Z",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Series.of(
                "t",
                java.util.List.of(
                    Sample.of(Instant.ofEpochSecond(2), 1),
                    Sample.of(Instant.ofEpochSecond(1), 1))));
  }

  @Test
  void forecast_rejectsNonFiniteFields() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new Forecast("x", Double.NaN, 0, 0, 1, 0, "x", Forecast.Status.OK));
  }
}
