package org.braid.predictors;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.braid.predictors.PredictorName.Family;

/**
 * The catalogue of predictors: the univariate rules of paper 003's Figure 4, the Network Weather
 * Service's exponential smoothing and trimmed medians, size-class filtering, and adaptive
 * selection. Windows and gains are parameters; {@link #byName(String)} reads the paper's names.
 */
public final class Predictors {

  private static final long HOUR = Duration.ofHours(1).toMillis();
  private static final long DAY = Duration.ofDays(1).toMillis();

  /** The exponential smoothing gains the Network Weather Service runs. */
  public static final List<Double> NWS_GAINS =
      List.of(0.05, 0.10, 0.15, 0.20, 0.30, 0.40, 0.50, 0.75);

  private Predictors() {}

  /** Mean over all samples ({@code AVG}). */
  public static Predictor mean() {
    return new MovingMean(name(Family.AVG), Integer.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * Mean over the last {@code n} samples ({@code AVG<n>}).
   *
   * @throws IllegalArgumentException if n is not positive
   */
  public static Predictor mean(int n) {
    requirePositive("window", n);
    return new MovingMean(name(Family.AVG_N, n), n, Long.MAX_VALUE);
  }

  /**
   * Mean over the samples of the last {@code hours} hours ({@code AVG<h>hr}); the latest sample
   * when none is that recent.
   *
   * @throws IllegalArgumentException if hours is not positive
   */
  public static Predictor meanHours(int hours) {
    requirePositive("hours", hours);
    return new MovingMean(name(Family.AVG_HOURS, hours), Integer.MAX_VALUE, hours * HOUR);
  }

  /** Median over all samples ({@code MED}). */
  public static Predictor median() {
    return new MovingMedian(name(Family.MED), Integer.MAX_VALUE);
  }

  /**
   * Median over the last {@code n} samples ({@code MED<n>}).
   *
   * @throws IllegalArgumentException if n is not positive
   */
  public static Predictor median(int n) {
    requirePositive("window", n);
    return new MovingMedian(name(Family.MED_N, n), n);
  }

  /** The last value ({@code LV}). */
  public static Predictor lastValue() {
    return new LastValue();
  }

  /** Autoregression G'(t) = a + b G(t-1) over all data ({@code AR}). */
  public static Predictor autoregression() {
    return new Autoregression(name(Family.AR), Long.MAX_VALUE);
  }

  /**
   * Autoregression over the last {@code days} days ({@code AR<d>d}).
   *
   * @throws IllegalArgumentException if days is not positive
   */
  public static Predictor autoregressionDays(int days) {
    requirePositive("days", days);
    return new Autoregression(name(Family.AR_DAYS, days), days * DAY);
  }

  /**
   * Exponential smoothing with the given gain ({@code ES<gain>}, e.g. {@code ES0.05}).
   *
   * @throws IllegalArgumentException if the gain is not in (0, 1]
   */
  public static Predictor exponentialSmoothing(double gain) {
    if (!(gain > 0 && gain <= 1)) {
      throw new IllegalArgumentException("smoothing gain must be in (0, 1]: " + gain);
    }
    return new ExponentialSmoothing(name(Family.ES, gain), gain);
  }

  /**
   * The NWS trimmed median over the last {@code n} samples with the given trim fraction per end
   * ({@code TRIM<n>}; the name shows the trim when it is not 0.2).
   *
   * @throws IllegalArgumentException if n is not positive or trim is not in [0, 0.5)
   */
  public static Predictor trimmedMedian(int n, double trim) {
    requirePositive("window", n);
    if (!(trim >= 0 && trim < 0.5)) {
      throw new IllegalArgumentException("trim fraction must be in [0, 0.5): " + trim);
    }
    return new TrimmedMedian(name(Family.TRIM_FRACTION, n, trim), n, trim);
  }

  /**
   * The predictor filtered by size class: each sample is predicted from its own class's history
   * (paper 003 section 3.3.3). Keeps the inner predictor's name.
   */
  public static Predictor sizeClassed(Predictor inner, SizeClasses classes) {
    return new SizeClassed(Objects.requireNonNull(inner, "inner"), Objects.requireNonNull(classes));
  }

  /**
   * Adaptive selection among the candidates: the one with the lowest cumulative absolute (or
   * squared) error on unseen samples makes each forecast.
   *
   * @param window 0 to score over all history, else the number of latest scored samples
   * @throws IllegalArgumentException if there are no candidates or the window is negative
   */
  public static Predictor adaptive(
      String name, List<Predictor> candidates, boolean squaredError, int window) {
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("adaptive predictor needs candidates");
    }
    if (window < 0) {
      throw new IllegalArgumentException("error window must be 0 (all) or positive: " + window);
    }
    return new AdaptivePredictor(
        name,
        candidates,
        new AdaptivePredictor.Options(squaredError, window, new int[] {1}, 0, new long[0]));
  }

  /**
   * Time-linear size model over the last {@code window} transfers ({@code TLIN<W>}): transfer time
   * = a + b * size, predicting size / time.
   *
   * @throws IllegalArgumentException if the window is below 3
   */
  public static Predictor timeLinear(int window) {
    requireAtLeast("window", window, 3);
    return new SizeAware(name(Family.TLIN, window), SizeAware.Mode.TIME_LINEAR, window, 0);
  }

  /**
   * Log-log size model over the last {@code window} transfers ({@code LOGSIZE<W>}).
   *
   * @throws IllegalArgumentException if the window is below 3
   */
  public static Predictor logSize(int window) {
    requireAtLeast("window", window, 3);
    return new SizeAware(name(Family.LOGSIZE, window), SizeAware.Mode.LOG_LOG, window, 0);
  }

  /**
   * Median of the {@code k} transfers closest in log size among the last {@code window} ({@code
   * NEAR<k>/<W>}).
   *
   * @throws IllegalArgumentException if k or the window is not positive, or k exceeds the window
   */
  public static Predictor nearestSize(int k, int window) {
    requirePositive("neighbours", k);
    requireAtLeast("window", window, k);
    return new SizeAware(name(Family.NEAR, k, window), SizeAware.Mode.NEAREST, window, k);
  }

  /**
   * Log-linear regression of bandwidth on size and on the number of transfers started in the
   * preceding minute, over the last {@code window} transfers ({@code LOAD<W>}, or {@code
   * LOADONLY<W>} without size).
   *
   * @throws IllegalArgumentException if the window is below 3
   */
  public static Predictor loadRegression(int window, boolean withSize) {
    requireAtLeast("window", window, 3);
    return new LoadRegression(
        name(withSize ? Family.LOAD : Family.LOADONLY, window),
        window,
        withSize ? LoadRegression.SIZE | LoadRegression.LOAD : LoadRegression.LOAD);
  }

  /**
   * Log-domain autoregression with size: log bandwidth on the previous transfer's log bandwidth and
   * on log size, over the last {@code window} transfers ({@code LOGAR<W>}).
   *
   * @throws IllegalArgumentException if the window is below 3
   */
  public static Predictor logAutoregression(int window) {
    requireAtLeast("window", window, 3);
    return new LoadRegression(
        name(Family.LOGAR, window), window, LoadRegression.LAG | LoadRegression.SIZE);
  }

  /**
   * Log bandwidth on everything the log tells before a transfer starts: previous bandwidth, size,
   * transfers started in the last minute and ten minutes, and the pause since the previous one,
   * over the last {@code window} transfers ({@code CONTEXT<W>}).
   *
   * @throws IllegalArgumentException if the window is below 10
   */
  public static Predictor contextRegression(int window) {
    requireAtLeast("window", window, 10);
    return new LoadRegression(
        name(Family.CONTEXT, window),
        window,
        LoadRegression.LAG
            | LoadRegression.SIZE
            | LoadRegression.LOAD
            | LoadRegression.LONG_LOAD
            | LoadRegression.GAP);
  }

  /** The fifteen univariate predictors of paper 003's Figure 4, in the figure's order. */
  public static List<Predictor> figure4() {
    return List.of(
        mean(),
        median(),
        autoregression(),
        lastValue(),
        mean(5),
        median(5),
        mean(15),
        median(15),
        mean(25),
        median(25),
        meanHours(5),
        meanHours(15),
        meanHours(25),
        autoregressionDays(5),
        autoregressionDays(10));
  }

  /**
   * Figure 4, the NWS smoothing gains, and trimmed and plain medians over longer windows: the
   * forecasters that need nothing but the series itself.
   */
  public static List<Predictor> nwsCandidates() {
    List<Predictor> c = new ArrayList<>(figure4());
    for (double g : NWS_GAINS) {
      c.add(exponentialSmoothing(g));
    }
    c.add(trimmedMedian(15, 0.2));
    c.add(trimmedMedian(25, 0.2));
    c.add(trimmedMedian(51, 0.2));
    c.add(median(51));
    c.add(median(101));
    return List.copyOf(c);
  }

  /**
   * The candidates of the default predictor: {@link #nwsCandidates()} plus the size-aware and
   * load-aware models ({@code TLIN}, {@code LOGSIZE}, {@code NEAR}, {@code LOAD}, {@code LOADONLY},
   * {@code LOGAR}, {@code CONTEXT}).
   */
  public static List<Predictor> defaultCandidates() {
    List<Predictor> c = new ArrayList<>(nwsCandidates());
    for (int w : new int[] {25, 100}) {
      c.add(timeLinear(w));
      c.add(logSize(w));
      c.add(nearestSize(5, w));
      c.add(nearestSize(9, w));
    }
    for (int w : new int[] {50, 200}) {
      c.add(loadRegression(w, true));
      c.add(loadRegression(w, false));
      c.add(logAutoregression(w));
      c.add(contextRegression(w));
    }
    return List.copyOf(c);
  }

  /** The gaps that separate the default predictor's error contexts: 1 s, 1 min, 1 h. */
  static final long[] DEFAULT_GAPS = {1_000L, 60_000L, 3_600_000L};

  /** The numbers of best candidates the default rule may average; past error picks one. */
  static final int[] DEFAULT_BEST = {2, 5, 10};

  /**
   * Braid's default predictor ({@code default}), over the whole series with size classes as
   * contexts. Its candidates are those of {@link #defaultCandidates()} twice: once per size class
   * (each sample predicted from its own class, paper 003 section 3.3.3) and once over all sizes
   * (every earlier sample, so a transfer of one size sees the load that the latest transfers of
   * other sizes met). Each candidate's absolute error is kept per context: the size class and the
   * pause since the previous transfer of that class (up to 1 s, 1 min, 1 h, or longer), older
   * errors fading with a half-life of 20 samples, a context's error shrunk toward the candidate's
   * error over all contexts with the weight of 10 samples. The forecast is the mean of the k best
   * candidates, with k among 2, 5 and 10 chosen by the past error of each choice.
   *
   * @throws NullPointerException if classes is null
   */
  public static Predictor defaultPredictor(SizeClasses classes) {
    return defaultRule(name(Family.DEFAULT), Objects.requireNonNull(classes, "classes"), List.of());
  }

  /** Braid's default rule without size classes (every candidate sees every sample). */
  public static Predictor defaultUnclassed() {
    return defaultRule(name(Family.DEFAULT), null, List.of());
  }

  /**
   * The rule the information provider publishes ({@code published}): Braid's default rule with the
   * regression models of paper 003's Table 1 that the probe series allow among its candidates, each
   * fitted over all sizes and, with size classes, per class. Without probe series it is the default
   * rule. Cost per sample: the default rule's plus one regression fit per model.
   *
   * @param classes the size classes, or null for none
   * @throws NullPointerException if probes is null
   */
  public static Predictor published(ProbeSeries probes, SizeClasses classes) {
    Objects.requireNonNull(probes, "probes");
    List<Predictor> extras = new ArrayList<>();
    for (Multivariate m : Multivariate.table1()) {
      if (probes.allow(m)) {
        Predictor whole = m.asPredictor(probes.network(), probes.disk(), null);
        extras.add(classes == null ? whole : allSizes(whole));
        if (classes != null) {
          extras.add(m.asPredictor(probes.network(), probes.disk(), classes));
        }
      }
    }
    return defaultRule(name(Family.PUBLISHED), classes, extras);
  }

  /**
   * Braid's default selection rule over {@link #defaultCandidates()} (twice with size classes: per
   * class and over all sizes) and the given extra candidates.
   *
   * @param classes the size classes, or null for none
   */
  static Predictor defaultRule(String name, SizeClasses classes, List<Predictor> extras) {
    List<Predictor> c = new ArrayList<>();
    for (Predictor p : defaultCandidates()) {
      c.add(classes == null ? p : sizeClassed(p, classes));
    }
    if (classes != null) {
      for (Predictor p : defaultCandidates()) {
        c.add(allSizes(p));
      }
    }
    c.addAll(extras);
    return new AdaptivePredictor(
        name,
        c,
        new AdaptivePredictor.Options(false, -20, DEFAULT_BEST, 10, DEFAULT_GAPS, 0, classes));
  }

  /** The same predictor, named as the twin over all sizes of a size-classed candidate. */
  private static Predictor allSizes(Predictor p) {
    String name = p.name() + " over all sizes";
    return new Predictor() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public State start() {
        return p.start();
      }
    };
  }

  /**
   * The Network Weather Service's own rule over {@link #nwsCandidates()}: the single candidate with
   * the lowest cumulative absolute error over all history ({@code NWS}).
   */
  public static Predictor nws() {
    return adaptive(name(Family.NWS), nwsCandidates(), false, 0);
  }

  /**
   * The predictor with the given name, without size classes: {@code AVG}, {@code AVG25}, {@code
   * AVG5hr}, {@code MED}, {@code MED15}, {@code LV}, {@code AR}, {@code AR5d}, {@code ES0.3},
   * {@code TRIM25}, {@code TRIM25/0.1}, {@code TLIN25}, {@code LOGSIZE100}, {@code NEAR5/25},
   * {@code LOAD50}, {@code LOADONLY200}, {@code LOGAR50}, {@code CONTEXT200}, {@code NWS}, {@code
   * default} (the rule without size classes), {@code published} (without probes: the same).
   * Case-insensitive. The regression models need probe series: {@link PredictorName#predictor}.
   *
   * @throws IllegalArgumentException if the name is not one of these forms, or names a regression
   *     model
   */
  public static Predictor byName(String name) {
    return PredictorName.parse(name).predictor(ProbeSeries.NONE, null);
  }

  private static String name(Family family, Object... args) {
    return PredictorName.render(family, args);
  }

  private static void requireAtLeast(String what, long v, long min) {
    if (v < min) {
      throw new IllegalArgumentException(what + " must be at least " + min + ": " + v);
    }
  }

  private static void requirePositive(String what, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException(what + " must be positive: " + v);
    }
  }
}
