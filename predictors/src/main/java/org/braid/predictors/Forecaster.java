package org.braid.predictors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The entry point for forecasts with paper 003's accuracy triplet: predicted value, average past
 * normalized percent error, and the 95% confidence interval of that error.
 *
 * <p>The error is the predictor's own one-step error over the history it was given: every sample
 * predicted from the samples before it. A history shorter than the training size gives {@link
 * Forecast.Status#INSUFFICIENT_HISTORY}, never NaN.
 *
 * <p>Immutable and thread-safe.
 */
public final class Forecaster {

  /** The predictor name reported for Braid's default predictor. */
  public static final String DEFAULT_NAME = "default";

  private final Predictor predictor;
  private final String name;
  private final int trainingSize;
  private final SizeClasses sizeClasses;
  private final boolean regression;

  private Forecaster(Builder b) {
    this.sizeClasses = b.sizeClasses;
    this.predictor = b.predictor != null ? b.predictor : Predictors.defaultPredictor(b.sizeClasses);
    this.name = b.predictor != null ? b.predictor.name() : DEFAULT_NAME;
    this.trainingSize = b.trainingSize;
    this.regression = b.regression;
  }

  /** A builder with the defaults: Braid's default predictor, size classes, training size 15. */
  public static Builder builder() {
    return new Builder();
  }

  /** The training size: the fewest samples a forecast is made from. */
  public int trainingSize() {
    return trainingSize;
  }

  /**
   * Forecasts the next transfer of the given size at the given time from a transfer series.
   *
   * @throws NullPointerException if the series or time is null
   */
  public Forecast forecast(Series transfers, long nextSize, Instant at) {
    Objects.requireNonNull(transfers, "transfers");
    Objects.requireNonNull(at, "at");
    int n = transfers.size();
    if (n < trainingSize) {
      return Forecast.insufficient(name, n);
    }
    Predictor.State state = predictor.start();
    double[] p = new double[n];
    for (int i = 0; i < n; i++) {
      p[i] = state.predict(transfers.timeMillis(i), transfers.sizeBytes(i));
      state.add(transfers.timeMillis(i), transfers.value(i), transfers.sizeBytes(i));
    }
    double value =
        state.predict(Math.max(at.toEpochMilli(), transfers.timeMillis(n - 1)), nextSize);
    String chosen = state.chosen().isEmpty() ? name : state.chosen();
    return make(name, chosen, value, Evaluation.score(transfers, p, 1), n);
  }

  /**
   * Forecasts the next transfer with the regression models of paper 003 section 3.2 (G+N, G+D,
   * G+N+D with every fill, as the probe series allow) among the candidates, next to the univariate
   * predictor: whichever had the lowest one-step error over the history makes the forecast. Empty
   * probe series are simply not used. Cost: O(n^2) in the number of transfers.
   *
   * @throws NullPointerException if an argument is null
   */
  public Forecast forecast(
      Series transfers, Series network, Series disk, long nextSize, Instant at) {
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(disk, "disk");
    Forecast univariate = forecast(transfers, nextSize, at);
    if (!univariate.isAvailable() || !regression || (network.isEmpty() && disk.isEmpty())) {
      return univariate;
    }
    List<Multivariate> models = new ArrayList<>();
    for (Multivariate m : Multivariate.table1()) {
      if ((!m.usesNetwork() || !network.isEmpty()) && (!m.usesDisk() || !disk.isEmpty())) {
        models.add(m);
      }
    }
    Forecast best = univariate;
    long atMillis = Math.max(at.toEpochMilli(), transfers.timeMillis(transfers.size() - 1));
    for (Multivariate m : models) {
      double[] p = m.oneStep(transfers, network, disk, sizeClasses, atMillis, nextSize);
      Score s = Evaluation.score(transfers, p, 1);
      double value = p[transfers.size()];
      if (Double.isNaN(value) || s.count() == 0) {
        continue;
      }
      if (s.errorPct() < best.errorPct()) {
        best = make(name, m.name(), value, s, transfers.size());
      }
    }
    return best;
  }

  private static Forecast make(String name, String chosen, double value, Score s, int n) {
    if (Double.isNaN(value)) {
      return Forecast.insufficient(name, n);
    }
    double ci = s.count() >= 2 ? s.ciPct() : s.errorPct();
    return new Forecast(name, value, s.errorPct(), ci, n, s.count(), chosen, Forecast.Status.OK);
  }

  /** Options for a {@link Forecaster}. Not thread-safe. */
  public static final class Builder {
    private Predictor predictor;
    private int trainingSize = 15;
    private SizeClasses sizeClasses = SizeClasses.PAPER;
    private boolean regression = true;

    private Builder() {}

    /** The predictor to use. Default: {@link Predictors#defaultPredictor(SizeClasses)}. */
    public Builder predictor(Predictor predictor) {
      this.predictor = Objects.requireNonNull(predictor, "predictor");
      return this;
    }

    /**
     * The fewest samples a forecast is made from. Default: 15, as in paper 003.
     *
     * @throws IllegalArgumentException if below 2
     */
    public Builder trainingSize(int trainingSize) {
      if (trainingSize < 2) {
        throw new IllegalArgumentException("training size must be at least 2: " + trainingSize);
      }
      this.trainingSize = trainingSize;
      return this;
    }

    /**
     * The size classes of the default predictor and the regression models. Default: the paper's.
     */
    public Builder sizeClasses(SizeClasses sizeClasses) {
      this.sizeClasses = Objects.requireNonNull(sizeClasses, "sizeClasses");
      return this;
    }

    /** Whether probe series bring in the regression models. Default: true. */
    public Builder regression(boolean regression) {
      this.regression = regression;
      return this;
    }

    /** The forecaster. */
    public Forecaster build() {
      return new Forecaster(this);
    }
  }
}
