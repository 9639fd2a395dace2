package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The prediction study's committed dataset (real GridFTP transfers and provider probes recorded by
 * {@code src/test/study/run-study.sh}, see docs/prediction-study.md) gives exactly the committed
 * table: a change to any predictor, to the matching and filling, or to the scoring shows here.
 */
class PredictionStudyTest {

  static final Path STUDY = Path.of("src/test/resources/study");

  // the evaluation replays every predictor over the whole dataset (tens of seconds): once per class
  private static List<PredictionStudy.Mirror> mirrors;
  private static List<PredictionStudy.Cell> cells;

  @BeforeAll
  static void evaluateOnce() throws Exception {
    mirrors = PredictionStudy.load(STUDY);
    cells = PredictionStudy.evaluate(mirrors);
  }

  @Test
  void committedDataset_reproducesCommittedResultsAndCorrelations() throws Exception {
    assertTrue(mirrors.size() >= 2, "mirrors in " + STUDY.toAbsolutePath());
    assertFalse(cells.isEmpty(), "some mirror and size class has more than the training set");
    assertEquals(Files.readString(STUDY.resolve("results.csv")), StudyReport.resultsCsv(cells));
    assertEquals(
        Files.readString(STUDY.resolve("correlations.csv")),
        StudyReport.correlationsCsv(PredictionStudy.correlations(mirrors)));
    assertEquals(
        Files.readString(STUDY.resolve("table.md")),
        StudyReport.table(cells, PredictionStudy.correlations(mirrors), mirrors));
  }

  /**
   * Issue 16's targets on the committed dataset: the published rule within 1 point of the best
   * model in the table (it is the best), the univariate default within 3 points of every other
   * model (paper 003's Table 1, Figure 4, NWS; against the published rule, which sees the probes,
   * it is 3.8 points behind: that goal is missed); and both rules really use what they claim (the
   * whole log; the probe series).
   */
  @Test
  void committedDataset_publishedIsBest_defaultWithin3PointsOfThePapersModels() {
    var all = StudyReport.byMirror(cells, null);
    double best = Double.MAX_VALUE;
    double bestOther = Double.MAX_VALUE;
    String bestName = "";
    for (String p : StudyReport.columns()) {
      best = Math.min(best, all.get(p)[0]);
      if (!p.equals(Forecaster.PUBLISHED_NAME) && !p.equals(Forecaster.DEFAULT_NAME)) {
        if (all.get(p)[0] < bestOther) {
          bestOther = all.get(p)[0];
          bestName = p;
        }
      }
    }
    double def = all.get(Forecaster.DEFAULT_NAME)[0];
    double published = all.get(Forecaster.PUBLISHED_NAME)[0];
    String where =
        "best of the paper's "
            + bestName
            + " "
            + bestOther
            + ", default "
            + def
            + ", published "
            + published;
    assertTrue(published <= best + 1, where);
    assertTrue(def <= bestOther + 3, where);
    // without the other sizes' transfers the same rule is far behind; without probes, so is
    // published
    assertTrue(all.get(PredictionStudy.DEFAULT_CLASS_ONLY)[0] > def + 5, where);
    assertTrue(published < def - 2, where);
  }

  @Test
  void committedDataset_everyTable1PredictorScoredOnEveryCell() {
    long groups = cells.stream().map(c -> c.mirror() + "/" + c.sizeClass()).distinct().count();
    for (String p : StudyReport.TABLE1) {
      List<PredictionStudy.Cell> mine =
          cells.stream().filter(c -> c.predictor().equals(p)).toList();
      assertEquals(groups, mine.size(), p);
      for (PredictionStudy.Cell c : mine) {
        assertTrue(
            c.score().count() > 0, p + " scored nothing on " + c.mirror() + "/" + c.sizeClass());
      }
    }
  }

  @Test
  void pearson_perfectAndNone() {
    assertEquals(
        1.0,
        PredictionStudy.pearson(
            List.of(new double[] {1, 2}, new double[] {2, 4}, new double[] {3, 6})),
        1e-12);
    assertEquals(
        -1.0,
        PredictionStudy.pearson(
            List.of(new double[] {1, 2}, new double[] {2, 0}, new double[] {3, -2})),
        1e-12);
    assertTrue(
        Double.isNaN(
            PredictionStudy.pearson(
                List.of(new double[] {1, 2}, new double[] {1, 3}, new double[] {1, 4}))));
  }

  @Test
  void byMirror_leavesOutClassesWithoutAScoredTransfer() {
    List<PredictionStudy.Cell> cs =
        List.of(
            new PredictionStudy.Cell("m1", "small", "A", new Score(10, 20, 2, 1)),
            new PredictionStudy.Cell("m1", "large", "A", new Score(10, 40, 4, 1)),
            new PredictionStudy.Cell("m1", "small", "B", new Score(10, 30, 3, 1)),
            new PredictionStudy.Cell("m1", "large", "B", Score.NONE));
    var s = StudyReport.byMirror(cs, "m1");
    assertEquals(30, s.get("A")[0], 1e-9);
    // B's unscored class is no 0% error: B's mean is its one scored class
    assertEquals(30, s.get("B")[0], 1e-9);
    assertEquals(1, s.get("B")[2], 1e-9);
  }

  @Test
  void pearsonAndSlope_ofALine() {
    List<double[]> xy = List.of(new double[] {1, 3}, new double[] {2, 5}, new double[] {4, 9});
    assertEquals(1, PredictionStudy.pearson(xy), 1e-12);
    assertEquals(2, PredictionStudy.slope(xy), 1e-12);
    assertTrue(Double.isNaN(PredictionStudy.pearson(xy.subList(0, 2))), "under 3 points");
  }
}
