package org.braid.predictors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Replays series through predictors the way paper 003 evaluates them: every sample after the
 * training set is predicted from the samples before it only, and the predictions are scored with
 * the normalized percent error and its 95% confidence interval.
 */
public final class Evaluation {

  private Evaluation() {}

  /**
   * One-step-ahead predictions: element i predicts sample i from samples 0..i-1 (NaN for i = 0);
   * the last element, at index {@code series.size()}, predicts a next sample at the time and size
   * of the last one.
   */
  public static double[] oneStep(Predictor predictor, Series series) {
    Objects.requireNonNull(predictor, "predictor");
    int n = series.size();
    double[] p = new double[n + 1];
    Predictor.State state = predictor.start();
    for (int i = 0; i < n; i++) {
      p[i] = state.predict(series.timeMillis(i), series.sizeBytes(i));
      state.add(series.timeMillis(i), series.value(i), series.sizeBytes(i));
    }
    p[n] = n == 0 ? Double.NaN : state.predict(series.timeMillis(n - 1), series.sizeBytes(n - 1));
    return p;
  }

  /**
   * Scores the predictions of samples {@code from} to the end of the series; samples that were not
   * predicted (NaN) are skipped.
   *
   * @throws IllegalArgumentException if {@code predictions} is shorter than the series
   */
  public static Score score(Series series, double[] predictions, int from) {
    int n = series.size();
    if (predictions.length < n) {
      throw new IllegalArgumentException(
          "need "
              + n
              + " predictions for series '"
              + series.name()
              + "', got "
              + predictions.length);
    }
    int count = 0;
    double sumMeasured = 0;
    for (int i = Math.max(0, from); i < n; i++) {
      if (!Double.isNaN(predictions[i])) {
        count++;
        sumMeasured += series.value(i);
      }
    }
    if (count == 0) {
      return Score.NONE;
    }
    double mean = sumMeasured / count;
    if (mean <= 0) {
      // every measured value was zero: the normalized error is not defined; report absolute terms
      return new Score(count, 0, 0, 0);
    }
    double sum = 0;
    double sumSq = 0;
    for (int i = Math.max(0, from); i < n; i++) {
      if (!Double.isNaN(predictions[i])) {
        double z = Math.abs(series.value(i) - predictions[i]) / mean * 100;
        sum += z;
        sumSq += z * z;
      }
    }
    double errorPct = sum / count;
    double ci = 0;
    if (count >= 2) {
      double var = Math.max(0, (sumSq - count * errorPct * errorPct) / (count - 1));
      double t = new TDistribution(null, count - 1).inverseCumulativeProbability(0.975);
      ci = t * Math.sqrt(var / count);
    }
    return new Score(count, errorPct, ci, mean);
  }

  /**
   * Replays the series through the predictor and scores every sample after the first {@code
   * training} ones.
   *
   * @throws IllegalArgumentException if training is negative
   */
  public static Score evaluate(Predictor predictor, Series series, int training) {
    if (training < 0) {
      throw new IllegalArgumentException("training size must not be negative: " + training);
    }
    return score(series, oneStep(predictor, series), training);
  }

  /**
   * One line of a comparison table: how one predictor did on one series, with or without size
   * classes.
   *
   * @param series the series' name
   * @param predictor the predictor's name ({@code default} for Braid's default)
   * @param sizeClasses whether the predictor saw only the samples of the predicted sample's size
   *     class
   * @param score the score
   */
  public record Row(String series, String predictor, boolean sizeClasses, Score score) {}

  /**
   * Compares predictors on a series as paper 003's Table 1 and Figure 9 do: every predictor of
   * Figure 4, the Network Weather Service rule, and Braid's default, each without and with size
   * classes.
   */
  public static List<Row> compare(Series series, SizeClasses classes, int training) {
    return compare(series, ProbeSeries.NONE, classes, training);
  }

  /**
   * The names {@link #compare(Series, ProbeSeries, SizeClasses, int)} scores: paper 003's Figure 4,
   * {@code NWS} and {@code default}; with probe series also the models of Table 1 they allow and
   * {@code published}.
   */
  public static List<PredictorName> comparedNames(ProbeSeries probes) {
    List<PredictorName> names = new ArrayList<>();
    for (Predictor p : Predictors.figure4()) {
      names.add(PredictorName.parse(p.name()));
    }
    names.add(PredictorName.parse(Predictors.nws().name()));
    names.add(PredictorName.parse(Forecaster.DEFAULT_NAME));
    if (!probes.isEmpty()) {
      for (Multivariate m : Multivariate.table1()) {
        if (probes.allow(m)) {
          names.add(PredictorName.parse(m.name()));
        }
      }
      names.add(PredictorName.parse(Forecaster.PUBLISHED_NAME));
    }
    return names;
  }

  /**
   * Compares the predictors of {@link #comparedNames(ProbeSeries)} on a series, each without and
   * with size classes: rows for every name without classes, then for every name with them.
   */
  public static List<Row> compare(
      Series series, ProbeSeries probes, SizeClasses classes, int training) {
    return compare(series, comparedNames(probes), probes, classes, training);
  }

  /**
   * Scores the named predictors on a series, each without and with size classes (rows for every
   * name without classes, then for every name with them). A regression model refits at every
   * sample: cost O(n^2) in the series length.
   *
   * @throws IllegalArgumentException if a regression model lacks its probe series
   */
  public static List<Row> compare(
      Series series,
      List<PredictorName> names,
      ProbeSeries probes,
      SizeClasses classes,
      int training) {
    Objects.requireNonNull(classes, "classes");
    List<Row> rows = new ArrayList<>();
    for (SizeClasses c : Arrays.asList(null, classes)) {
      for (PredictorName name : names) {
        Score s = evaluate(name.predictor(probes, c), series, training);
        rows.add(new Row(series.name(), name.toString(), c != null, s));
      }
    }
    return rows;
  }
}
