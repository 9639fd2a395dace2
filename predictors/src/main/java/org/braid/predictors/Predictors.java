package org.braid.predictors;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    return new MovingMean("AVG", Integer.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * Mean over the last {@code n} samples ({@code AVG<n>}).
   *
   * @throws IllegalArgumentException if n is not positive
   */
  public static Predictor mean(int n) {
    requirePositive("window", n);
    return new MovingMean("AVG" + n, n, Long.MAX_VALUE);
  }

  /**
   * Mean over the samples of the last {@code hours} hours ({@code AVG<h>hr}); the latest sample
   * when none is that recent.
   *
   * @throws IllegalArgumentException if hours is not positive
   */
  public static Predictor meanHours(int hours) {
    requirePositive("hours", hours);
    return new MovingMean("AVG" + hours + "hr", Integer.MAX_VALUE, hours * HOUR);
  }

  /** Median over all samples ({@code MED}). */
  public static Predictor median() {
    return new MovingMedian("MED", Integer.MAX_VALUE);
  }

  /**
   * Median over the last {@code n} samples ({@code MED<n>}).
   *
   * @throws IllegalArgumentException if n is not positive
   */
  public static Predictor median(int n) {
    requirePositive("window", n);
    return new MovingMedian("MED" + n, n);
  }

  /** The last value ({@code LV}). */
  public static Predictor lastValue() {
    return new LastValue();
  }

  /** Autoregression G'(t) = a + b G(t-1) over all data ({@code AR}). */
  public static Predictor autoregression() {
    return new Autoregression("AR", Long.MAX_VALUE);
  }

  /**
   * Autoregression over the last {@code days} days ({@code AR<d>d}).
   *
   * @throws IllegalArgumentException if days is not positive
   */
  public static Predictor autoregressionDays(int days) {
    requirePositive("days", days);
    return new Autoregression("AR" + days + "d", days * DAY);
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
    return new ExponentialSmoothing("ES" + trimZeros(gain), gain);
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
    String name = "TRIM" + n + (trim == 0.2 ? "" : "/" + trimZeros(trim));
    return new TrimmedMedian(name, n, trim);
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
    return new SizeAware("TLIN" + window, SizeAware.Mode.TIME_LINEAR, window, 0);
  }

  /**
   * Log-log size model over the last {@code window} transfers ({@code LOGSIZE<W>}).
   *
   * @throws IllegalArgumentException if the window is below 3
   */
  public static Predictor logSize(int window) {
    requireAtLeast("window", window, 3);
    return new SizeAware("LOGSIZE" + window, SizeAware.Mode.LOG_LOG, window, 0);
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
    return new SizeAware("NEAR" + k + "/" + window, SizeAware.Mode.NEAREST, window, k);
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
        (withSize ? "LOAD" : "LOADONLY") + window,
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
    return new LoadRegression("LOGAR" + window, window, LoadRegression.LAG | LoadRegression.SIZE);
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
        "CONTEXT" + window,
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

  /**
   * Braid's default predictor, run per size class: the mean of the 5 candidates of {@link
   * #defaultCandidates()} with the lowest absolute error on the samples that came after a similar
   * pause (up to 1 s, 1 min, 1 h, or longer since the previous transfer), older errors fading with
   * a half-life of 20 samples, and each context's error shrunk toward the candidate's error over
   * all pauses with the weight of 10 samples.
   */
  public static Predictor defaultPredictor(SizeClasses classes) {
    return sizeClassed(defaultUnclassed(), classes);
  }

  /** Braid's default selection without the size classes, for comparisons. */
  public static Predictor defaultUnclassed() {
    return defaultUnclassed("default", List.of());
  }

  /**
   * Braid's default selection rule (without size classes) over {@link #defaultCandidates()} and the
   * given extra candidates, for example the regression models of {@link Multivariate#asPredictor}.
   *
   * @throws NullPointerException if the name or the list is null
   */
  static Predictor defaultUnclassed(String name, List<Predictor> extraCandidates) {
    Objects.requireNonNull(name, "name");
    List<Predictor> c = new ArrayList<>(defaultCandidates());
    c.addAll(extraCandidates);
    return new AdaptivePredictor(
        name, c, new AdaptivePredictor.Options(false, -20, new int[] {5}, 10, DEFAULT_GAPS));
  }

  /**
   * The Network Weather Service's own rule over {@link #nwsCandidates()}: the single candidate with
   * the lowest cumulative absolute error over all history ({@code NWS}).
   */
  public static Predictor nws() {
    return adaptive("NWS", nwsCandidates(), false, 0);
  }

  private static final Pattern NAME =
      Pattern.compile(
          "(?<kind>AVG|MED|AR|LV|ES|TRIM|TLIN|LOGSIZE|NEAR|LOADONLY|LOAD|LOGAR|CONTEXT|NWS)"
              + "(?<num>[0-9]*\\.?[0-9]*)(?<unit>HR|D)?(?:/(?<trim>[0-9.]+))?");

  /**
   * The predictor with the given name: {@code AVG}, {@code AVG25}, {@code AVG5hr}, {@code MED},
   * {@code MED15}, {@code LV}, {@code AR}, {@code AR5d}, {@code ES0.3}, {@code TRIM25}, {@code
   * TRIM25/0.1}, {@code TLIN25}, {@code LOGSIZE100}, {@code NEAR5/25}, {@code LOAD50}, {@code
   * LOADONLY200}, {@code LOGAR50}, {@code CONTEXT200}, {@code NWS}. Case-insensitive.
   *
   * @throws IllegalArgumentException if the name is not one of these forms
   */
  public static Predictor byName(String name) {
    Objects.requireNonNull(name, "name");
    Matcher m = NAME.matcher(name.trim().toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("unknown predictor: '" + name + "'");
    }
    String kind = m.group("kind");
    String num = m.group("num");
    String unit = m.group("unit");
    try {
      switch (kind) {
        case "LV":
          if (num.isEmpty() && unit == null) {
            return lastValue();
          }
          break;
        case "AVG":
          if (num.isEmpty() && unit == null) {
            return mean();
          }
          if ("HR".equals(unit)) {
            return meanHours(Integer.parseInt(num));
          }
          if (unit == null) {
            return mean(Integer.parseInt(num));
          }
          break;
        case "MED":
          if (unit == null) {
            return num.isEmpty() ? median() : median(Integer.parseInt(num));
          }
          break;
        case "AR":
          if (num.isEmpty() && unit == null) {
            return autoregression();
          }
          if ("D".equals(unit)) {
            return autoregressionDays(Integer.parseInt(num));
          }
          break;
        case "ES":
          if (unit == null) {
            return exponentialSmoothing(Double.parseDouble(num));
          }
          break;
        case "NWS":
          if (num.isEmpty() && unit == null) {
            return nws();
          }
          break;
        case "TLIN":
          if (unit == null && m.group("trim") == null) {
            return timeLinear(Integer.parseInt(num));
          }
          break;
        case "LOGSIZE":
          if (unit == null && m.group("trim") == null) {
            return logSize(Integer.parseInt(num));
          }
          break;
        case "LOAD":
        case "LOADONLY":
          if (unit == null && m.group("trim") == null) {
            return loadRegression(Integer.parseInt(num), kind.equals("LOAD"));
          }
          break;
        case "LOGAR":
          if (unit == null && m.group("trim") == null) {
            return logAutoregression(Integer.parseInt(num));
          }
          break;
        case "CONTEXT":
          if (unit == null && m.group("trim") == null) {
            return contextRegression(Integer.parseInt(num));
          }
          break;
        case "NEAR":
          if (unit == null && m.group("trim") != null) {
            return nearestSize(Integer.parseInt(num), Integer.parseInt(m.group("trim")));
          }
          break;
        case "TRIM":
          if (unit == null) {
            String t = m.group("trim");
            return trimmedMedian(Integer.parseInt(num), t == null ? 0.2 : Double.parseDouble(t));
          }
          break;
        default:
          break;
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unknown predictor: '" + name + "'", e);
    }
    throw new IllegalArgumentException("unknown predictor: '" + name + "'");
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

  private static String trimZeros(double d) {
    String s = Double.toString(d);
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }
}
