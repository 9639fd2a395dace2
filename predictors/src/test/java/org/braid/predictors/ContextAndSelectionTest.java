package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextAndSelectionTest {

  @Test
  void sizeClasses_paperBoundsAreLowerInclusive() {
    SizeClasses c = SizeClasses.PAPER;
    assertEquals(0, c.classOf(49_999_999));
    assertEquals(1, c.classOf(50_000_000));
    assertEquals(2, c.classOf(250_000_000));
    assertEquals(3, c.classOf(750_000_000));
    assertEquals("1G", c.labelOf(5_000_000_000L));
    assertEquals(0, c.classOf(Sample.UNKNOWN_SIZE));
  }

  @Test
  void sizeClasses_parse_readsSuffixes() {
    SizeClasses c = SizeClasses.parse("10M,1G");
    assertEquals(3, c.count());
    assertEquals(1, c.classOf(10_000_000));
    assertEquals(2, c.classOf(1_000_000_000));
    assertEquals(List.of("0", "10M", "1G"), c.labels());
  }

  @Test
  void sizeClassed_predictsFromTheSameClassOnly() {
    Series s =
        Series.builder("s")
            .add(Instant.ofEpochSecond(0), 10, 1_000_000) // small
            .add(Instant.ofEpochSecond(1), 100, 1_000_000_000) // large
            .add(Instant.ofEpochSecond(2), 20, 2_000_000) // small
            .build();
    Predictor p = Predictors.sizeClassed(Predictors.mean(), SizeClasses.PAPER);
    assertEquals(15.0, p.predict(s, 3000, 5_000_000), 1e-9);
    assertEquals(100.0, p.predict(s, 3000, 900_000_000), 1e-9);
    // no history in the 100M class yet: every sample
    assertEquals(130.0 / 3, p.predict(s, 3000, 100_000_000), 1e-9);
  }

  @Test
  void nwsAdaptive_choosesTheCandidateWithLowestPastError() {
    // a steady trend: the last value is always closer than the mean of all data
    Predictor p =
        Predictors.adaptive("a", List.of(Predictors.mean(), Predictors.lastValue()), false, 0);
    Predictor.State st = p.start();
    for (int i = 0; i < 20; i++) {
      st.add(i * 1000L, i, -1);
    }
    assertEquals(19.0, st.predict(20_000, -1), 1e-9);
    assertEquals("LV", st.chosen());
  }

  @Test
  void nwsAdaptive_switchesWhenTheWindowedErrorChanges() {
    Predictor p =
        Predictors.adaptive("a", List.of(Predictors.lastValue(), Predictors.mean()), false, 5);
    Predictor.State st = p.start();
    long t = 0;
    for (int i = 0; i < 20; i++) {
      st.add(t += 1000, i, -1); // trend: LV wins
    }
    assertEquals("LV", chosenAfterPredict(st, t + 1000));
    for (int i = 0; i < 20; i++) {
      st.add(t += 1000, i % 2 == 0 ? 0 : 20, -1); // alternation around 10: the mean wins
    }
    assertEquals("AVG", chosenAfterPredict(st, t + 1000));
  }

  private static String chosenAfterPredict(Predictor.State st, long t) {
    st.predict(t, -1);
    return st.chosen();
  }

  @Test
  void defaultPredictor_constantSeries_predictsTheConstant() {
    Predictor p = Predictors.defaultPredictor(SizeClasses.PAPER);
    Series.Builder b = Series.builder("c");
    for (int i = 0; i < 100; i++) {
      b.add(Instant.ofEpochSecond(i * 60L), 5e7, 100_000_000L + i);
    }
    assertEquals(5e7, p.predict(b.build(), 100 * 60_000L, 100_000_000L), 1e-3);
  }

  /**
   * Regression test: the default rule used to run one independent selection per size class, so a
   * transfer of one size never saw the rate the latest transfers of other sizes met.
   */
  @Test
  void defaultPredictor_rateChangeSeenByOtherSizes_isFollowed() {
    java.util.Random r = new java.util.Random(2);
    Series.Builder b = Series.builder("s");
    double rate = 20e6;
    for (int i = 0; i < 200; i++) {
      if (i % 6 == 0) {
        rate = 5e6 + r.nextDouble() * 40e6; // the path's rate, whatever the size
      }
      long size = r.nextBoolean() ? 10_000_000L : 500_000_000L;
      b.add(Instant.ofEpochSecond(i * 60L), rate * (0.97 + 0.06 * r.nextDouble()), size);
    }
    // the latest large transfers met a new rate that no small one has seen yet
    for (int i = 200; i < 203; i++) {
      b.add(Instant.ofEpochSecond(i * 60L), 80e6, 500_000_000L);
    }
    Series s = b.build();
    double next =
        Predictors.defaultPredictor(SizeClasses.PAPER).predict(s, 203 * 60_000L, 10_000_000L);
    assertEquals(80e6, next, 8e6);
    // the paper's context-sensitive filtering alone keeps the small class's old rate
    double classOnly =
        Predictors.sizeClassed(Predictors.defaultUnclassed(), SizeClasses.PAPER)
            .predict(s, 203 * 60_000L, 10_000_000L);
    org.junit.jupiter.api.Assertions.assertTrue(classOnly < 50e6, "class only: " + classOnly);
  }
}
