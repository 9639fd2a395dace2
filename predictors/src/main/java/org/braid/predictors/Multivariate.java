package org.braid.predictors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.commons.math3.exception.MathIllegalArgumentException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * Paper 003's multivariate predictors (section 3.2): regression of transfer bandwidth G on network
 * probe values N and disk load values D, G' = a + b1 N + b2 D, or polynomial in one of them up to
 * degree 4 (G' = a + b1 N + ... + b4 N^4), fitted by least squares (Commons Math QR).
 *
 * <p>Matching (3.2.1): each transfer is paired with the network and disk samples closest to it in
 * time. Filling (3.2.2): the probe samples that no transfer claimed form probe-only tuples, whose
 * transfer value is dropped ({@link Fill#NOFILL}), the last value ({@link Fill#LV}) or the past
 * day's mean ({@link Fill#AVG}). The forecast uses the latest network and disk values. Nothing
 * later than the prediction time is used, not even the probe closest to a past transfer.
 *
 * <p>Immutable and thread-safe. Cost: O((g + p) log p) to match g transfers with p probes, O(t k^2)
 * to fit t tuples with k terms.
 */
public final class Multivariate {

  private static final long DAY = 24 * 3600 * 1000L;

  private final boolean network;
  private final boolean disk;
  private final Fill fill;
  private final int degree;

  private Multivariate(boolean network, boolean disk, Fill fill, int degree) {
    this.network = network;
    this.disk = disk;
    this.fill = fill;
    this.degree = degree;
  }

  /**
   * A linear model on the chosen regressors.
   *
   * @throws IllegalArgumentException if neither network nor disk is chosen
   * @throws NullPointerException if fill is null
   */
  public static Multivariate of(boolean network, boolean disk, Fill fill) {
    return polynomial(network, disk, fill, 1);
  }

  /**
   * A polynomial model of the given degree; degrees above 1 need exactly one regressor.
   *
   * @throws IllegalArgumentException if no regressor is chosen, the degree is outside 1..4, or a
   *     degree above 1 is asked for two regressors
   */
  public static Multivariate polynomial(boolean network, boolean disk, Fill fill, int degree) {
    Objects.requireNonNull(fill, "fill");
    if (!network && !disk) {
      throw new IllegalArgumentException("a multivariate model needs network or disk data");
    }
    if (degree < 1 || degree > 4) {
      throw new IllegalArgumentException("polynomial degree must be 1 to 4: " + degree);
    }
    if (degree > 1 && network && disk) {
      throw new IllegalArgumentException("polynomial terms need a single regressor");
    }
    return new Multivariate(network, disk, fill, degree);
  }

  /** The nine models of paper 003's Table 1: G+N, G+D and G+N+D, each with the three fills. */
  public static List<Multivariate> table1() {
    List<Multivariate> out = new ArrayList<>();
    for (boolean[] r : new boolean[][] {{true, false}, {false, true}, {true, true}}) {
      for (Fill f : Fill.values()) {
        out.add(of(r[0], r[1], f));
      }
    }
    return List.copyOf(out);
  }

  /** The paper's name: {@code G+N Avg}, {@code G+N+D NoFill}, {@code G+N^3 LV}, ... */
  public String name() {
    String vars = (network ? "+N" : "") + (disk ? "+D" : "");
    return PredictorName.render(PredictorName.Family.REGRESSION, vars, degree, fill);
  }

  /** Whether the model uses network data. */
  public boolean usesNetwork() {
    return network;
  }

  /** Whether the model uses disk data. */
  public boolean usesDisk() {
    return disk;
  }

  /**
   * A matched (and possibly filled) tuple.
   *
   * @param time the time of the transfer, or of the probe for a filled tuple
   * @param g the transfer bandwidth (synthetic when filled)
   * @param n the matched network value (0 when the model does not use it)
   * @param d the matched disk value (0 when the model does not use it)
   * @param filled whether g is a filled-in value
   */
  public record Tuple(long time, double g, double n, double d, boolean filled) {}

  /**
   * Matches and fills: the tuples from the first {@code count} transfers and the probe samples at
   * or before {@code atMillis}.
   */
  public List<Tuple> match(Series g, Series n, Series d, int count, long atMillis) {
    Objects.requireNonNull(g, "g");
    Series nn = network ? Objects.requireNonNull(n, "network series") : null;
    Series dd = disk ? Objects.requireNonNull(d, "disk series") : null;
    int nEnd = nn == null ? 0 : nn.lastIndexAtOrBefore(atMillis) + 1;
    int dEnd = dd == null ? 0 : dd.lastIndexAtOrBefore(atMillis) + 1;
    if ((network && nEnd == 0) || (disk && dEnd == 0)) {
      return List.of();
    }
    Series primary = network ? nn : dd;
    int primaryEnd = network ? nEnd : dEnd;
    boolean[] claimed = new boolean[primaryEnd];
    List<Tuple> out = new ArrayList<>(count + (fill == Fill.NOFILL ? 0 : primaryEnd));
    for (int i = 0; i < count; i++) {
      long t = g.timeMillis(i);
      int ni = network ? nearest(nn, nEnd, t) : -1;
      int di = disk ? nearest(dd, dEnd, t) : -1;
      claimed[network ? ni : di] = true;
      out.add(
          new Tuple(t, g.value(i), ni < 0 ? 0 : nn.value(ni), di < 0 ? 0 : dd.value(di), false));
    }
    if (fill != Fill.NOFILL) {
      int gi = 0; // transfers at or before the probe: g[0..gi)
      double daySum = 0;
      int dayStart = 0;
      for (int j = 0; j < primaryEnd; j++) {
        long t = primary.timeMillis(j);
        while (gi < count && g.timeMillis(gi) <= t) {
          daySum += g.value(gi);
          gi++;
        }
        if (claimed[j] || gi == 0) {
          continue;
        }
        while (dayStart < gi && g.timeMillis(dayStart) <= t - DAY) {
          daySum -= g.value(dayStart);
          dayStart++;
        }
        double value =
            fill == Fill.LV || dayStart == gi ? g.value(gi - 1) : daySum / (gi - dayStart);
        double nv = network ? primary.value(j) : 0;
        double dv = disk ? (network ? dd.value(nearest(dd, dEnd, t)) : primary.value(j)) : 0;
        out.add(new Tuple(t, value, nv, dv, true));
      }
    }
    return out;
  }

  private static int nearest(Series s, int end, long t) {
    int i = s.lastIndexAtOrBefore(t);
    if (i >= end) {
      i = end - 1;
    }
    if (i < 0) {
      return 0;
    }
    if (i + 1 < end && s.timeMillis(i + 1) - t < t - s.timeMillis(i)) {
      return i + 1;
    }
    return i;
  }

  /** A fitted model: coefficients over standardized regressors. */
  record Fit(double[] beta, double meanX, double sdX, double meanY2, double sdY2) {}

  /**
   * Fits the model to the tuples.
   *
   * @return the fit, or null when the tuples cannot determine it (too few, or no variation)
   */
  Fit fit(List<Tuple> tuples) {
    int k = network && disk ? 2 : degree;
    if (tuples.size() < k + 2) {
      return null;
    }
    double[] first = new double[tuples.size()];
    double[] second = new double[tuples.size()];
    double[] y = new double[tuples.size()];
    for (int i = 0; i < tuples.size(); i++) {
      Tuple t = tuples.get(i);
      first[i] = network ? t.n() : t.d();
      second[i] = t.d();
      y[i] = t.g();
    }
    double m1 = mean(first);
    double s1 = sd(first, m1);
    double m2 = mean(second);
    double s2 = sd(second, m2);
    if (s1 == 0 || (network && disk && s2 == 0)) {
      return null;
    }
    double[][] x = new double[y.length][k];
    for (int i = 0; i < y.length; i++) {
      terms(x[i], (first[i] - m1) / s1, (second[i] - m2) / s2);
    }
    try {
      OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
      ols.newSampleData(y, x);
      return new Fit(ols.estimateRegressionParameters(), m1, s1, m2, s2);
    } catch (MathIllegalArgumentException e) { // includes SingularMatrixException
      return null;
    }
  }

  private void terms(double[] row, double z1, double z2) {
    if (network && disk) {
      row[0] = z1;
      row[1] = z2;
    } else {
      double p = 1;
      for (int j = 0; j < degree; j++) {
        p *= z1;
        row[j] = p;
      }
    }
  }

  private double apply(Fit f, double v1, double v2) {
    int k = f.beta().length - 1;
    double[] row = new double[k];
    terms(row, (v1 - f.meanX()) / f.sdX(), f.sdY2() == 0 ? 0 : (v2 - f.meanY2()) / f.sdY2());
    double p = f.beta()[0];
    for (int j = 0; j < k; j++) {
      p += f.beta()[j + 1] * row[j];
    }
    return p;
  }

  /**
   * Predicts the bandwidth of a transfer at {@code atMillis} from the first {@code count} transfers
   * and the probes up to that time, using the latest network and disk values.
   *
   * @return the prediction (never negative), or NaN when the data cannot determine a model
   */
  public double predict(Series g, Series n, Series d, int count, long atMillis) {
    Fit f = fit(match(g, n, d, count, atMillis));
    if (f == null) {
      return Double.NaN;
    }
    double v1 =
        network
            ? n.value(n.lastIndexAtOrBefore(atMillis))
            : d.value(d.lastIndexAtOrBefore(atMillis));
    double v2 = disk ? d.value(d.lastIndexAtOrBefore(atMillis)) : 0;
    double p = apply(f, v1, v2);
    return Double.isFinite(p) ? Math.max(0, p) : Double.NaN;
  }

  /**
   * One-step predictions for every transfer of {@code g} from its predecessors and the probes
   * before it, like {@link Evaluation#oneStep}; element {@code g.size()} predicts a transfer at
   * {@code nextMillis}. With size classes, each transfer is predicted from the earlier transfers of
   * its own class (all earlier transfers while its class has fewer than two).
   */
  public double[] oneStep(
      Series g, Series n, Series d, SizeClasses classes, long nextMillis, long nextSize) {
    double[] p = new double[g.size() + 1];
    p[0] = Double.NaN;
    for (int i = 1; i <= g.size(); i++) {
      long t = i < g.size() ? g.timeMillis(i) : nextMillis;
      long size = i < g.size() ? g.sizeBytes(i) : nextSize;
      p[i] = predictFrom(g, i, n, d, classes, t, size);
    }
    return p;
  }

  /**
   * Predicts a transfer of the given size at {@code t} from the first {@code end} transfers of
   * {@code g} (with size classes: those of its class, or all of them while the class has fewer than
   * two).
   */
  double predictFrom(
      Series g, int end, Series n, Series d, SizeClasses classes, long t, long size) {
    Series history = classes == null ? g.head(end) : sameClass(g, end, classes, size);
    return predict(history, n, d, history.size(), t);
  }

  private static Series sameClass(Series g, int end, SizeClasses classes, long size) {
    int c = classes.classOf(size);
    Series.Builder b = Series.builder(g.name());
    for (int i = 0; i < end; i++) {
      if (classes.classOf(g.sizeBytes(i)) == c) {
        b.add(Instant.ofEpochMilli(g.timeMillis(i)), g.value(i), g.sizeBytes(i));
      }
    }
    return b.size() >= 2 ? b.build() : g.head(end);
  }

  /**
   * Scores the model the paper's way: every transfer after the first {@code training} predicted
   * from what came before it.
   */
  public Score evaluate(Series g, Series n, Series d, SizeClasses classes, int training) {
    double[] p = oneStep(g, n, d, classes, g.isEmpty() ? 0 : g.timeMillis(g.size() - 1), 0);
    return Evaluation.score(g, p, training);
  }

  /**
   * This model as a {@link Predictor} over fixed probe series, so that it can be evaluated by name
   * and run beside the univariate predictors (for example among the candidates of an adaptive
   * selection). Its state keeps the transfers added so far; each prediction refits the model to
   * them (with size classes: to those of the predicted size's class, as {@link #oneStep}) and to
   * the probes up to the prediction time. A replay gives exactly {@link #oneStep}'s predictions.
   * Cost per prediction: as {@link #predict}.
   *
   * @param networkSeries the network probe series (required when the model uses network data)
   * @param diskSeries the disk load series (required when the model uses disk data)
   * @param classes the size classes, or null to fit over every transfer
   * @throws NullPointerException if a series the model uses is null
   */
  Predictor asPredictor(Series networkSeries, Series diskSeries, SizeClasses classes) {
    Series nn = network ? Objects.requireNonNull(networkSeries, "network series") : null;
    Series dd = disk ? Objects.requireNonNull(diskSeries, "disk series") : null;
    Multivariate model = this;
    String name = name();
    return new Predictor() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public State start() {
        return new State() {
          private final Series.Builder history = Series.builder(name);
          private Series built;

          @Override
          public void add(long t, double v, long size) {
            history.add(Instant.ofEpochMilli(t), v, size);
            built = null;
          }

          @Override
          public double predict(long t, long size) {
            if (history.size() == 0) {
              return Double.NaN;
            }
            if (built == null) {
              built = history.build();
            }
            return model.predictFrom(built, built.size(), nn, dd, classes, t, size);
          }
        };
      }
    };
  }

  private static double mean(double[] a) {
    double s = 0;
    for (double v : a) {
      s += v;
    }
    return s / a.length;
  }

  private static double sd(double[] a, double m) {
    double s = 0;
    for (double v : a) {
      s += (v - m) * (v - m);
    }
    return Math.sqrt(s / a.length);
  }

  @Override
  public String toString() {
    return name();
  }
}
