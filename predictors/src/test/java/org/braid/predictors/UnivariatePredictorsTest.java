package org.braid.predictors;

import static org.braid.predictors.TestSeries.HOUR;
import static org.braid.predictors.TestSeries.next;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnivariatePredictorsTest {

  private static final double EPS = 1e-9;

  @Test
  void mean_allData_isArithmeticMean() {
    assertEquals(2.5, next(Predictors.mean(), 1, 2, 3, 4), EPS);
  }

  @Test
  void mean_lastN_usesOnlyTheWindow() {
    assertEquals(3.5, next(Predictors.mean(2), 1, 2, 3, 4), EPS);
    assertEquals(4.0, next(Predictors.mean(5), 2, 4, 6), EPS);
  }

  @Test
  void meanHours_usesSamplesOfTheLastHours_andFallsBackToLastValue() {
    Series s =
        Series.builder("s")
            .add(Instant.ofEpochMilli(0), 10)
            .add(Instant.ofEpochMilli(3 * HOUR), 20)
            .add(Instant.ofEpochMilli(7 * HOUR), 30)
            .build();
    Predictor p = Predictors.meanHours(5);
    assertEquals(25.0, p.predict(s, 8 * HOUR, -1), EPS); // samples at 3h and 7h
    assertEquals(30.0, p.predict(s, 20 * HOUR, -1), EPS); // none in the window: last value
  }

  @Test
  void median_allData_oddAndEvenCounts() {
    assertEquals(3.0, next(Predictors.median(), 5, 1, 3), EPS);
    assertEquals(4.0, next(Predictors.median(), 5, 1, 3, 7), EPS);
  }

  @Test
  void median_allData_matchesSortingAfterEveryInsert() {
    Predictor.State st = Predictors.median().start();
    double[] values = {9, 2, 7, 7, 1, 8, 3, 3, 10, 0, 5};
    for (int i = 0; i < values.length; i++) {
      st.add(i, values[i], -1);
      double[] sorted = java.util.Arrays.copyOf(values, i + 1);
      java.util.Arrays.sort(sorted);
      assertEquals(
          MovingMedian.medianOfSorted(sorted, i + 1), st.predict(i, -1), EPS, "after " + i);
    }
  }

  @Test
  void median_lastN_usesOnlyTheWindow() {
    assertEquals(3.0, next(Predictors.median(3), 9, 1, 5, 3), EPS);
  }

  @Test
  void lastValue_isTheLatestSample() {
    assertEquals(4.0, next(Predictors.lastValue(), 1, 9, 4), EPS);
  }

  @Test
  void autoregression_linearSeries_extrapolatesExactly() {
    // pairs (1,2),(2,3),(3,4),(4,5): a = 1, b = 1
    assertEquals(6.0, next(Predictors.autoregression(), 1, 2, 3, 4, 5), 1e-6);
  }

  @Test
  void autoregression_recoversCoefficients() {
    // y = 2 + 0.5 y(t-1) from 10: 10, 7, 5.5, 4.75, 4.375 -> next 4.1875
    assertEquals(4.1875, next(Predictors.autoregression(), 10, 7, 5.5, 4.75, 4.375), 1e-9);
  }

  @Test
  void autoregression_tooFewPairs_usesMean() {
    assertEquals(5.0, next(Predictors.autoregression(), 4, 6), EPS);
  }

  @Test
  void autoregressionDays_ignoresPairsOlderThanTheWindow() {
    long day = 24 * HOUR;
    Series.Builder b = Series.builder("s");
    // old regime: constant 100 (would pull the fit toward 100)
    for (int i = 0; i < 5; i++) {
      b.add(Instant.ofEpochMilli(i * HOUR), 100);
    }
    // recent regime, ten days later: y = 2 + 0.5 y(t-1)
    double[] recent = {10, 7, 5.5, 4.75, 4.375};
    for (int i = 0; i < recent.length; i++) {
      b.add(Instant.ofEpochMilli(10 * day + i * HOUR), recent[i]);
    }
    Series s = b.build();
    double p = Predictors.autoregressionDays(5).predict(s, 10 * day + 6 * HOUR, -1);
    assertEquals(4.1875, p, 1e-9);
  }

  @Test
  void exponentialSmoothing_appliesTheGain() {
    assertEquals(22.5, next(Predictors.exponentialSmoothing(0.5), 10, 20, 30), EPS);
    assertEquals(10.0, next(Predictors.exponentialSmoothing(0.05), 10), EPS);
  }

  @Test
  void trimmedMedian_dropsTheTails() {
    assertEquals(3.0, next(Predictors.trimmedMedian(5, 0.2), 1, 2, 3, 4, 100), EPS);
    assertEquals(22.0, next(Predictors.trimmedMedian(5, 0.0), 1, 2, 3, 4, 100), EPS);
  }

  @Test
  void predict_emptyHistory_isNaN() {
    for (Predictor p : Predictors.defaultCandidates()) {
      assertTrue(Double.isNaN(p.predict(Series.empty("e"), 0, -1)), p.name());
    }
  }

  @Test
  void everyCandidate_afterOneSample_predictsThatSample() {
    for (Predictor p : Predictors.defaultCandidates()) {
      assertEquals(7.0, next(p, 7), 1e-9, p.name());
    }
  }

  @Test
  void byName_readsThePapersNames() {
    for (Predictor p : Predictors.figure4()) {
      assertEquals(p.name(), Predictors.byName(p.name()).name());
    }
    for (String n :
        List.of(
            "ES0.3",
            "TRIM25",
            "TLIN25",
            "LOGSIZE100",
            "NEAR5/25",
            "LOAD50",
            "LOADONLY200",
            "LOGAR50",
            "CONTEXT200",
            "NWS")) {
      assertEquals(n, Predictors.byName(n).name());
    }
    assertEquals("AVG5hr", Predictors.byName("avg5hr").name());
  }

  @Test
  void byName_unknown_namesTheInput() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Predictors.byName("AVGX"));
    assertEquals(
        "unknown predictor: 'AVGX' (see docs/predictors.md for the names)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Predictors.byName("MED5hr"));
  }

  @Test
  void factories_rejectBadParameters() {
    assertEquals(
        "window must be positive: 0",
        assertThrows(IllegalArgumentException.class, () -> Predictors.mean(0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Predictors.exponentialSmoothing(0));
    assertThrows(IllegalArgumentException.class, () -> Predictors.exponentialSmoothing(1.5));
    assertThrows(IllegalArgumentException.class, () -> Predictors.trimmedMedian(5, 0.5));
    assertThrows(IllegalArgumentException.class, () -> Predictors.nearestSize(10, 5));
  }
}
