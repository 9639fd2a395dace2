package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The predictors issue's acceptance check on the bundled SLAC records: on every (fsid, ttype)
 * series with at least 500 samples, the default predictor's normalized error is at most 0.9 times
 * that of the best fixed predictor of paper 003's Figure 4 with size classes.
 */
class SlacAcceptanceTest {

  static Path bundled() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isRegularFile(p.resolve("data/slac-hpss/transfers-dev.csv.gz"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException(
          "data/slac-hpss/transfers-dev.csv.gz not found above " + Path.of("").toAbsolutePath());
    }
    return p.resolve("data/slac-hpss/transfers-dev.csv.gz");
  }

  @Test
  void defaultPredictor_beatsBestFixedWithClassesByTenPercent_onEverySlacSeries()
      throws IOException {
    SeriesReaders.Result r = SeriesReaders.readSlac(bundled());
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (Series s : r.series()) {
      if (s.size() < 500) {
        continue;
      }
      checked++;
      double best = Double.MAX_VALUE;
      for (Predictor p : Predictors.figure4()) {
        best =
            Math.min(
                best,
                Evaluation.evaluate(Predictors.sizeClassed(p, SizeClasses.PAPER), s, 15)
                    .errorPct());
      }
      double def =
          Evaluation.evaluate(Predictors.defaultPredictor(SizeClasses.PAPER), s, 15).errorPct();
      if (def > 0.9 * best) {
        failures.add(s.name() + ": default " + def + " vs best fixed " + best);
      }
    }
    assertTrue(checked >= 5, "series checked: " + checked);
    assertFalse(!failures.isEmpty(), String.join("; ", failures));
  }
}
