package org.braid.predictors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Names are written and read from one definition: every name survives a round trip. */
class PredictorNameTest {

  private static final ProbeSeries PROBES = probes();

  private static ProbeSeries probes() {
    Series.Builder n = Series.builder("n");
    Series.Builder d = Series.builder("d");
    for (int i = 0; i < 5; i++) {
      n.add(Instant.ofEpochSecond(i), 1 + i);
      d.add(Instant.ofEpochSecond(i), 5 - i);
    }
    return new ProbeSeries(n.build(), d.build());
  }

  @Test
  void catalogue_everyNameRoundTrips_andNamesItsPredictor() {
    List<PredictorName> all = PredictorName.catalogue();
    Set<String> seen = new HashSet<>();
    for (PredictorName name : all) {
      String text = name.toString();
      assertTrue(seen.add(text), "listed twice: " + text);
      assertEquals(name, PredictorName.parse(text), text);
      assertEquals(text, PredictorName.parse(text.toLowerCase(Locale.ROOT)).toString(), text);
      assertEquals(text, PredictorName.parse(text.toUpperCase(Locale.ROOT)).toString(), text);
      assertEquals(text, name.predictor(PROBES, null).name(), text);
      assertEquals(text, name.predictor(PROBES, SizeClasses.PAPER).name(), text);
    }
    // 88 candidates of the default rule (44 distinct names), NWS, default, published, 9 + 18 models
    assertEquals(44 + 3 + 9 + 18, all.size());
  }

  @Test
  void everyFactoryName_parsesToTheSamePredictor() {
    List<Predictor> made = new ArrayList<>(Predictors.defaultCandidates());
    made.addAll(
        List.of(
            Predictors.mean(7),
            Predictors.meanHours(2),
            Predictors.median(3),
            Predictors.autoregressionDays(3),
            Predictors.exponentialSmoothing(0.25),
            Predictors.exponentialSmoothing(1),
            Predictors.trimmedMedian(9, 0.1),
            Predictors.trimmedMedian(9, 0.2),
            Predictors.trimmedMedian(9, 0),
            Predictors.nearestSize(3, 40),
            Predictors.loadRegression(20, false),
            Predictors.nws()));
    for (Predictor p : made) {
      PredictorName n = PredictorName.parse(p.name());
      assertEquals(p.name(), n.toString());
      assertEquals(p.name(), n.predictor(ProbeSeries.NONE, null).name());
      assertEquals(p.name(), Predictors.byName(p.name()).name());
    }
    for (int degree = 1; degree <= 4; degree++) {
      for (Fill f : Fill.values()) {
        Multivariate m = Multivariate.polynomial(true, false, f, degree);
        assertEquals(m.name(), PredictorName.parse(m.name()).toString());
        assertEquals(m.name(), PredictorName.parse(m.name()).regression().name());
      }
    }
  }

  @Test
  void parse_lenientSpellings_giveTheCanonicalName() {
    assertEquals("AVG5hr", PredictorName.parse(" avg5HR ").toString());
    assertEquals("ES0.3", PredictorName.parse("ES0.30").toString());
    assertEquals("ES0.3", PredictorName.parse("es.3").toString());
    assertEquals("TRIM25", PredictorName.parse("TRIM25/0.2").toString());
    assertEquals("TRIM25/0.1", PredictorName.parse("trim25/0.10").toString());
    assertEquals("AVG7", PredictorName.parse("AVG007").toString());
    assertEquals("G+N+D NoFill", PredictorName.parse("g+n+d_nofill").toString());
    assertEquals("G+N Avg", PredictorName.parse("G+N-AVG").toString());
    assertEquals("G+N LV", PredictorName.parse("G+N^1 LV").toString());
    assertEquals("G+D^3 LV", PredictorName.parse("g+d^3 lv").toString());
    assertEquals("published", PredictorName.parse("PUBLISHED").toString());
    assertEquals("default", PredictorName.parse("Default").toString());
  }

  @Test
  void parse_badNames_sayWhatIsWrong() {
    assertEquals(
        "unknown predictor: 'AVGX' (see docs/predictors.md for the names)",
        assertThrows(IllegalArgumentException.class, () -> PredictorName.parse("AVGX"))
            .getMessage());
    assertEquals(
        "bad predictor name 'AVG0': window must be positive: 0",
        assertThrows(IllegalArgumentException.class, () -> PredictorName.parse("AVG0"))
            .getMessage());
    assertEquals(
        "bad predictor name 'G+N+D^2 LV': polynomial terms need a single regressor",
        assertThrows(IllegalArgumentException.class, () -> PredictorName.parse("G+N+D^2 LV"))
            .getMessage());
    for (String bad :
        List.of("", "MED5hr", "ES1.5", "ES0", "NEAR10/5", "TLIN2", "G+N", "G+X LV", "LV5", "AR5")) {
      assertThrows(IllegalArgumentException.class, () -> PredictorName.parse(bad), bad);
    }
    assertThrows(NullPointerException.class, () -> PredictorName.parse(null));
  }

  @Test
  void regressionNames_needTheirProbes() {
    PredictorName gnd = PredictorName.parse("G+N+D LV");
    assertTrue(gnd.isRegression() && gnd.needsNetwork() && gnd.needsDisk());
    PredictorName gd = PredictorName.parse("G+D Avg");
    assertFalse(gd.needsNetwork());
    assertEquals(
        "G+N+D LV needs a network probe series",
        assertThrows(IllegalArgumentException.class, () -> gnd.predictor(ProbeSeries.NONE, null))
            .getMessage());
    ProbeSeries networkOnly = new ProbeSeries(PROBES.network(), Series.empty("d"));
    assertEquals(
        "G+D Avg needs a disk load series",
        assertThrows(IllegalArgumentException.class, () -> gd.predictor(networkOnly, null))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> Predictors.byName("G+N NoFill"));
    assertFalse(PredictorName.parse("published").isRegression());
  }
}
