package org.braid.predictors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The entry point for forecasts with paper 003's accuracy triplet: predicted value, average past
 * normalized percent error, and the 95% confidence interval of that error.
 *
 * <p>A forecaster runs one named model ({@link PredictorName}; default {@code published}, the rule
 * the information provider publishes: Braid's default rule, with the regression models of paper
 * 003's Table 1 among its candidates whenever probe series are given). It replays the whole history
 * once, in time order, and predicts the next transfer from all of it. The error is the model's own
 * one-step error over that history: every sample predicted from the samples before it, scored over
 * the samples of the next transfer's size class (over all samples while that class has none). A
 * history shorter than the training size gives {@link Forecast.Status#INSUFFICIENT_HISTORY}, never
 * NaN.
 *
 * <p>Immutable and thread-safe.
 */
public final class Forecaster {

  /** The name of Braid's default univariate rule. */
  public static final String DEFAULT_NAME = PredictorName.render(PredictorName.Family.DEFAULT);

  /** The name of the rule the provider publishes (the default model of a forecaster). */
  public static final String PUBLISHED_NAME = PredictorName.render(PredictorName.Family.PUBLISHED);

  private final PredictorName model;
  private final Predictor fixed;
  private final int trainingSize;
  private final SizeClasses sizeClasses;

  private Forecaster(Builder b) {
    this.model = b.model;
    this.fixed = b.predictor;
    this.trainingSize = b.trainingSize;
    this.sizeClasses = b.sizeClasses;
  }

  /** A builder with the defaults: the published rule, the paper's size classes, training 15. */
  public static Builder builder() {
    return new Builder();
  }

  /** The training size: the fewest samples a forecast is made from. */
  public int trainingSize() {
    return trainingSize;
  }

  /** The name forecasts report as their predictor. */
  public String name() {
    return fixed != null ? fixed.name() : model.toString();
  }

  /**
   * Forecasts the next transfer of the given size at the given time from a transfer series alone.
   *
   * @throws NullPointerException if the series or time is null
   * @throws IllegalArgumentException if the model is a regression model (it needs probe series)
   */
  public Forecast forecast(Series transfers, long nextSize, Instant at) {
    return forecast(transfers, ProbeSeries.NONE, nextSize, at);
  }

  /**
   * Forecasts the next transfer from the transfers and the network and disk probe series (either
   * may be empty).
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the model is a regression model whose probe series is empty
   */
  public Forecast forecast(
      Series transfers, Series network, Series disk, long nextSize, Instant at) {
    return forecast(transfers, new ProbeSeries(network, disk), nextSize, at);
  }

  /**
   * Forecasts the next transfer from the transfers and the probe series.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the model is a regression model whose probe series is empty
   */
  public Forecast forecast(Series transfers, ProbeSeries probes, long nextSize, Instant at) {
    return forecast(transfers, probes, List.of(nextSize), at).get(0);
  }

  /**
   * Forecasts the next transfer for each of several sizes from one replay of the history (for
   * example one per size class). Cost: one replay of the model over the history.
   *
   * @return one forecast per size, in order
   * @throws NullPointerException if an argument or a size is null
   * @throws IllegalArgumentException if the model is a regression model whose probe series is empty
   */
  public List<Forecast> forecast(
      Series transfers, ProbeSeries probes, List<Long> nextSizes, Instant at) {
    Objects.requireNonNull(transfers, "transfers");
    Objects.requireNonNull(probes, "probes");
    Objects.requireNonNull(at, "at");
    List<Long> sizes = List.copyOf(nextSizes);
    Predictor predictor = fixed != null ? fixed : model.predictor(probes, sizeClasses);
    int n = transfers.size();
    List<Forecast> out = new ArrayList<>();
    if (n < trainingSize) {
      for (int i = 0; i < sizes.size(); i++) {
        out.add(Forecast.insufficient(name(), n));
      }
      return out;
    }
    Predictor.State state = predictor.start();
    double[] p = new double[n];
    for (int i = 0; i < n; i++) {
      p[i] = state.predict(transfers.timeMillis(i), transfers.sizeBytes(i));
      state.add(transfers.timeMillis(i), transfers.value(i), transfers.sizeBytes(i));
    }
    long atMillis = Math.max(at.toEpochMilli(), transfers.timeMillis(n - 1));
    for (long size : sizes) {
      double value = state.predict(atMillis, size);
      String chosen = state.chosen().isEmpty() ? name() : state.chosen();
      out.add(make(value, chosen, scoreFor(transfers, p, size), n));
    }
    return out;
  }

  /** The one-step error over the samples of the size's class, or all samples if it has none. */
  private Score scoreFor(Series transfers, double[] p, long size) {
    int c = sizeClasses.classOf(size);
    double[] mine = Arrays.copyOf(p, p.length);
    boolean any = false;
    for (int i = 0; i < mine.length; i++) {
      if (sizeClasses.classOf(transfers.sizeBytes(i)) != c) {
        mine[i] = Double.NaN;
      } else {
        any |= i > 0 && !Double.isNaN(mine[i]);
      }
    }
    return Evaluation.score(transfers, any ? mine : p, 1);
  }

  private Forecast make(double value, String chosen, Score s, int n) {
    if (Double.isNaN(value)) {
      return Forecast.insufficient(name(), n);
    }
    double ci = s.count() >= 2 ? s.ciPct() : s.errorPct();
    return new Forecast(name(), value, s.errorPct(), ci, n, s.count(), chosen, Forecast.Status.OK);
  }

  /** Options for a {@link Forecaster}. Not thread-safe. */
  public static final class Builder {
    private PredictorName model = PredictorName.parse(PUBLISHED_NAME);
    private Predictor predictor;
    private int trainingSize = 15;
    private SizeClasses sizeClasses = SizeClasses.PAPER;

    private Builder() {}

    /**
     * The model, by name ({@code published}, {@code default}, {@code AVG25}, {@code G+N NoFill},
     * ...; see {@link PredictorName}), run with this forecaster's size classes. Default: {@code
     * published}.
     *
     * @throws IllegalArgumentException if the name is no predictor's
     */
    public Builder model(String name) {
      this.model = PredictorName.parse(name);
      this.predictor = null;
      return this;
    }

    /** A predictor to use as it is (no size classes added, no probe series). */
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

    /** The size classes of the model and of the error. Default: the paper's. */
    public Builder sizeClasses(SizeClasses sizeClasses) {
      this.sizeClasses = Objects.requireNonNull(sizeClasses, "sizeClasses");
      return this;
    }

    /** The forecaster. */
    public Forecaster build() {
      return new Forecaster(this);
    }
  }
}
