package org.braid.predictors;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The predictors issue's performance goals: one forecast from a 1,000-sample history per
 * univariate predictor (goal under 50 us), one adaptive update scoring every candidate (goal under
 * 100 us), and a regression fit on 1,000 matched tuples (goal under 2 ms).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PredictorBenchmarks {

  static Series history(int n, long seed) {
    Random r = new Random(seed);
    Series.Builder b = Series.builder("bench");
    long t = 0;
    for (int i = 0; i < n; i++) {
      t += 1 + r.nextInt(600_000); // sporadic: up to ten minutes apart
      b.add(Instant.ofEpochMilli(t), 1e7 + r.nextDouble() * 9e7, 1_000_000L + r.nextInt(2_000_000_000));
    }
    return b.build();
  }

  /** One forecast from a 1,000-sample history: replay into a fresh state, then predict. */
  @State(Scope.Benchmark)
  public static class Univariate {
    @Param({
      "AVG", "MED", "AR", "LV", "AVG5", "MED5", "AVG15", "MED15", "AVG25", "MED25", "AVG5hr",
      "AVG15hr", "AVG25hr", "AR5d", "AR10d", "ES0.3", "TRIM25"
    })
    public String name;

    Predictor predictor;
    Series series;
    long next;

    @Setup
    public void setup() {
      predictor = Predictors.byName(name);
      series = history(1000, 1);
      next = series.timeMillis(series.size() - 1) + 1000;
    }
  }

  @Benchmark
  public double forecastFrom1000Samples(Univariate s) {
    return s.predictor.predict(s.series, s.next, 100_000_000);
  }

  /** The default predictor with 1,000 samples behind it; each call adds one more sample. */
  @State(Scope.Benchmark)
  public static class Adaptive {
    Predictor.State state;
    Series more;
    int i;
    long offset;

    @Setup(Level.Iteration)
    public void setup() {
      state = Predictors.defaultPredictor(SizeClasses.PAPER).start();
      Series h = history(1000, 2);
      for (int k = 0; k < h.size(); k++) {
        state.add(h.timeMillis(k), h.value(k), h.sizeBytes(k));
      }
      offset = h.timeMillis(h.size() - 1);
      more = history(100_000, 3);
      i = 0;
    }
  }

  /** One adaptive update: every candidate predicts the new sample, is scored, and learns it. */
  @Benchmark
  public Predictor.State adaptiveUpdate(Adaptive s) {
    int k = s.i++ % s.more.size();
    s.state.add(s.offset + s.more.timeMillis(k), s.more.value(k), s.more.sizeBytes(k));
    return s.state;
  }

  /** 1,000 matched tuples for the G+N+D regression. */
  @State(Scope.Benchmark)
  public static class Regression {
    Multivariate model = Multivariate.of(true, true, Fill.AVG);
    List<Multivariate.Tuple> tuples;

    @Setup
    public void setup() {
      Random r = new Random(4);
      tuples = new java.util.ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        double n = r.nextDouble() * 100;
        double d = r.nextDouble() * 50;
        tuples.add(new Multivariate.Tuple(i * 1000L, 1e6 + 3e4 * n - 1e4 * d + r.nextGaussian() * 1e5, n, d, i % 3 == 0));
      }
    }
  }

  @Benchmark
  public Object regressionFit1000Tuples(Regression s) {
    return s.model.fit(s.tuples);
  }
}
