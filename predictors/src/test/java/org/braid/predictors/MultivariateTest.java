package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultivariateTest {

  private static Series series(String name, long[] t, double[] v) {
    Series.Builder b = Series.builder(name);
    for (int i = 0; i < t.length; i++) {
      b.add(Instant.ofEpochSecond(t[i]), v[i]);
    }
    return b.build();
  }

  // transfers at 10, 50, 90 s; network probes at 0, 12, 30, 48, 70, 95 s
  private final Series g = series("g", new long[] {10, 50, 90}, new double[] {100, 200, 400});
  private final Series n =
      series("n", new long[] {0, 12, 30, 48, 70, 95}, new double[] {1, 2, 3, 4, 5, 6});

  @Test
  void match_pairsEachTransferWithTheClosestProbe() {
    List<Multivariate.Tuple> t =
        Multivariate.of(true, false, Fill.NOFILL).match(g, n, null, 3, 100_000);
    assertEquals(3, t.size());
    assertEquals(2.0, t.get(0).n()); // 10 s -> 12 s
    assertEquals(4.0, t.get(1).n()); // 50 s -> 48 s
    assertEquals(6.0, t.get(2).n()); // 90 s -> 95 s
  }

  @Test
  void match_neverUsesProbesAfterThePredictionTime() {
    List<Multivariate.Tuple> t =
        Multivariate.of(true, false, Fill.NOFILL).match(g, n, null, 3, 91_000);
    assertEquals(5.0, t.get(2).n()); // 95 s is in the future: 70 s is the closest known
  }

  @Test
  void fill_lastValueAndDayAverage_fillTheUnclaimedProbes() {
    // unclaimed probes: 0 s (no transfer before: dropped), 30 s, 70 s
    List<Multivariate.Tuple> lv =
        Multivariate.of(true, false, Fill.LV).match(g, n, null, 3, 100_000);
    List<Multivariate.Tuple> filledLv = lv.stream().filter(Multivariate.Tuple::filled).toList();
    assertEquals(2, filledLv.size());
    assertEquals(100.0, filledLv.get(0).g()); // at 30 s: last transfer 100
    assertEquals(200.0, filledLv.get(1).g()); // at 70 s: last transfer 200
    List<Multivariate.Tuple> avg =
        Multivariate.of(true, false, Fill.AVG).match(g, n, null, 3, 100_000);
    List<Multivariate.Tuple> filledAvg = avg.stream().filter(Multivariate.Tuple::filled).toList();
    assertEquals(100.0, filledAvg.get(0).g());
    assertEquals(150.0, filledAvg.get(1).g()); // mean of 100 and 200 within the day
  }

  @Test
  void regression_exactLinearRelation_isRecovered() {
    // G = 5 + 2N + 3D exactly, on probes that vary independently
    Series.Builder gb = Series.builder("g");
    Series.Builder nb = Series.builder("n");
    Series.Builder db = Series.builder("d");
    for (int i = 0; i < 30; i++) {
      double nv = (i * 7) % 11;
      double dv = (i * 5) % 13;
      nb.add(Instant.ofEpochSecond(i * 10L), nv);
      db.add(Instant.ofEpochSecond(i * 10L), dv);
      gb.add(Instant.ofEpochSecond(i * 10L), 5 + 2 * nv + 3 * dv);
    }
    nb.add(Instant.ofEpochSecond(300), 4);
    db.add(Instant.ofEpochSecond(300), 9);
    Multivariate m = Multivariate.of(true, true, Fill.NOFILL);
    assertEquals(5 + 8 + 27, m.predict(gb.build(), nb.build(), db.build(), 30, 305_000), 1e-6);
    assertEquals("G+N+D NoFill", m.name());
  }

  @Test
  void regression_quadratic_isRecovered() {
    Series.Builder gb = Series.builder("g");
    Series.Builder nb = Series.builder("n");
    for (int i = 0; i < 20; i++) {
      nb.add(Instant.ofEpochSecond(i * 10L), i);
      gb.add(Instant.ofEpochSecond(i * 10L), 1 + i * i);
    }
    nb.add(Instant.ofEpochSecond(200), 25);
    Multivariate m = Multivariate.polynomial(true, false, Fill.NOFILL, 2);
    assertEquals(626.0, m.predict(gb.build(), nb.build(), null, 20, 201_000), 1e-6);
    assertEquals("G+N^2 NoFill", m.name());
  }

  @Test
  void regression_constantProbe_cannotBeFitted() {
    Series flat = series("n", new long[] {0, 50, 100}, new double[] {3, 3, 3});
    assertTrue(
        Double.isNaN(Multivariate.of(true, false, Fill.LV).predict(g, flat, null, 3, 100_000)));
  }

  @Test
  void table1_hasTheNineModelsInThePapersOrder() {
    List<String> names = Multivariate.table1().stream().map(Multivariate::name).toList();
    assertEquals(
        List.of(
            "G+N NoFill",
            "G+N LV",
            "G+N Avg",
            "G+D NoFill",
            "G+D LV",
            "G+D Avg",
            "G+N+D NoFill",
            "G+N+D LV",
            "G+N+D Avg"),
        names);
  }

  @Test
  void polynomial_rejectsBadDegrees() {
    assertThrows(
        IllegalArgumentException.class, () -> Multivariate.polynomial(true, false, Fill.LV, 5));
    assertThrows(
        IllegalArgumentException.class, () -> Multivariate.polynomial(true, true, Fill.LV, 2));
    assertThrows(IllegalArgumentException.class, () -> Multivariate.of(false, false, Fill.LV));
  }

  @Test
  void forecaster_withProbes_picksRegressionWhenItExplainsTheData() {
    Series.Builder gb = Series.builder("g");
    Series.Builder nb = Series.builder("n");
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 60; i++) {
      double nv = r.nextDouble() * 100;
      nb.add(Instant.ofEpochSecond(i * 60L), nv);
      gb.add(Instant.ofEpochSecond(i * 60L + 1), 1000 + 50 * nv, 10_000_000);
    }
    nb.add(Instant.ofEpochSecond(3600), 10);
    Forecast f =
        Forecaster.builder()
            .build()
            .forecast(
                gb.build(), nb.build(), Series.empty("d"), 10_000_000, Instant.ofEpochSecond(3601));
    assertTrue(f.chosen().startsWith("G+N"), f.chosen());
    assertEquals(1500.0, f.value(), 1e-6);
  }

  @Test
  void asPredictor_predictsAsTheModelOnTheSameHistory() {
    Series.Builder gb = Series.builder("g");
    Series.Builder nb = Series.builder("n");
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 60; i++) {
      nb.add(Instant.ofEpochSecond(i * 10L), 1 + r.nextDouble() * 9);
      if (i % 3 == 1) {
        gb.add(Instant.ofEpochSecond(i * 10L + 2), 100 + r.nextDouble() * 50, 1000);
      }
    }
    Series gs = gb.build();
    Series ns = nb.build();
    for (Multivariate m :
        List.of(
            Multivariate.of(true, false, Fill.AVG), Multivariate.of(true, false, Fill.NOFILL))) {
      Predictor p = m.asPredictor(ns, null, null);
      assertEquals(m.name(), p.name());
      Predictor.State st = p.start();
      assertTrue(Double.isNaN(st.predict(0, 1000)));
      for (int i = 0; i < gs.size(); i++) {
        long t = gs.timeMillis(i);
        double want = m.predict(gs.head(i), ns, null, i, t);
        double got = st.predict(t, 1000);
        if (Double.isNaN(want)) {
          assertTrue(Double.isNaN(got), m.name() + " at " + i);
        } else {
          assertEquals(want, got, 1e-9, m.name() + " at " + i);
        }
        st.add(t, gs.value(i), 1000);
      }
    }
    assertThrows(
        NullPointerException.class,
        () -> Multivariate.of(false, true, Fill.LV).asPredictor(ns, null, null));
  }

  @Test
  void asPredictor_withSizeClasses_replaysExactlyAsOneStep() {
    Series.Builder gb = Series.builder("g");
    Series.Builder nb = Series.builder("n");
    java.util.Random r = new java.util.Random(7);
    for (int i = 0; i < 90; i++) {
      double nv = 1 + r.nextDouble() * 9;
      nb.add(Instant.ofEpochSecond(i * 10L), nv);
      if (i % 2 == 1) {
        long size = i % 4 == 1 ? 10_000_000L : 600_000_000L;
        gb.add(Instant.ofEpochSecond(i * 10L + 2), nv * (size > 1e8 ? 30 : 10), size);
      }
    }
    Series gs = gb.build();
    Series ns = nb.build();
    for (Fill f : Fill.values()) {
      Multivariate m = Multivariate.of(true, false, f);
      double[] want = m.oneStep(gs, ns, null, SizeClasses.PAPER, 0, 0);
      double[] got = Evaluation.oneStep(m.asPredictor(ns, null, SizeClasses.PAPER), gs);
      for (int i = 0; i < gs.size(); i++) {
        assertEquals(want[i], got[i], 0.0, m.name() + " at " + i);
      }
    }
  }

  @Test
  void defaultWithExtraCandidates_noExtras_predictsAsTheDefault() {
    Series.Builder b = Series.builder("g");
    java.util.Random r = new java.util.Random(5);
    for (int i = 0; i < 80; i++) {
      b.add(Instant.ofEpochSecond(i * 60L), 50 + r.nextGaussian() * 10 + (i / 20) * 20, 1000);
    }
    Series s = b.build();
    double[] want = Evaluation.oneStep(Predictors.defaultUnclassed(), s);
    double[] got = Evaluation.oneStep(Predictors.defaultRule("default", null, List.of()), s);
    assertEquals(want.length, got.length);
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], 0.0, "sample " + i);
    }
  }

  @Test
  void defaultWithExtraCandidates_anExactExtra_isSelected() {
    Series.Builder b = Series.builder("g");
    java.util.Random r = new java.util.Random(5);
    java.util.Map<Long, Double> truth = new java.util.HashMap<>();
    for (int i = 0; i < 80; i++) {
      double v = 50 + r.nextGaussian() * 10 + (i / 20) * 20;
      b.add(Instant.ofEpochSecond(i * 60L), v, 1000);
      truth.put(i * 60_000L, v);
    }
    Series s = b.build();
    // a candidate that knows every value: the default rule must pick it up among its best
    Predictor oracle =
        new Predictor() {
          @Override
          public String name() {
            return "ORACLE";
          }

          @Override
          public State start() {
            return new State() {
              @Override
              public void add(long timeMillis, double value, long size) {}

              @Override
              public double predict(long timeMillis, long size) {
                return truth.getOrDefault(timeMillis, Double.NaN);
              }
            };
          }
        };
    double without = meanAbsError(Predictors.defaultUnclassed(), s);
    double with = meanAbsError(Predictors.defaultRule("x", null, List.of(oracle)), s);
    assertTrue(with < 0.9 * without, "with the exact extra " + with + ", without " + without);
  }

  private static double meanAbsError(Predictor p, Series s) {
    double[] pred = Evaluation.oneStep(p, s);
    double sum = 0;
    int n = 0;
    for (int i = 20; i < s.size(); i++) {
      if (!Double.isNaN(pred[i])) {
        sum += Math.abs(pred[i] - s.value(i));
        n++;
      }
    }
    return sum / n;
  }
}
