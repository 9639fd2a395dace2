package org.braid.predictors;

import java.util.Objects;

/**
 * A forecast with the accuracy triplet of paper 003 section 3.3.2: the predicted value, the average
 * past normalized percent error of the predictor that made it, and the half-width of the 95%
 * confidence interval of that error.
 *
 * <p>A forecast made from too little history has status {@link Status#INSUFFICIENT_HISTORY} and
 * zeros in its numeric fields; no field is ever NaN or infinite.
 *
 * @param predictor the name of the predictor that made the value (for the adaptive predictor,
 *     {@code default}; see {@link #chosen()} for the rule it picked)
 * @param value the predicted value (bytes per second for transfer series)
 * @param errorPct average past normalized percent error: sum|measured - predicted| / (count * mean
 *     measured) * 100
 * @param ciPct half-width of the 95% confidence interval of {@code errorPct}, in percentage points
 * @param history the number of samples the forecast was made from
 * @param scored the number of past predictions behind {@code errorPct}
 * @param chosen the rule that made the value (equal to {@code predictor} for fixed predictors)
 * @param status whether the forecast is available
 */
public record Forecast(
    String predictor,
    double value,
    double errorPct,
    double ciPct,
    int history,
    int scored,
    String chosen,
    Status status) {

  /** Whether a forecast could be made. */
  public enum Status {
    /** The fields hold a forecast. */
    OK,
    /** There were too few samples; the numeric fields are zero. */
    INSUFFICIENT_HISTORY
  }

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if a name or the status is null
   * @throws IllegalArgumentException if a number is NaN, infinite or negative
   */
  public Forecast {
    Objects.requireNonNull(predictor, "predictor");
    Objects.requireNonNull(chosen, "chosen");
    Objects.requireNonNull(status, "status");
    check("value", value);
    check("errorPct", errorPct);
    check("ciPct", ciPct);
  }

  private static void check(String what, double v) {
    if (!Double.isFinite(v) || v < 0) {
      throw new IllegalArgumentException(what + " must be finite and not negative: " + v);
    }
  }

  /** An explicit "not enough history" result. */
  public static Forecast insufficient(String predictor, int history) {
    return new Forecast(predictor, 0, 0, 0, history, 0, predictor, Status.INSUFFICIENT_HISTORY);
  }

  /** Whether the forecast holds a value. */
  public boolean isAvailable() {
    return status == Status.OK;
  }

  /** The lower end of the value's expected range: value * (1 - (errorPct + ciPct) / 100), at 0. */
  public double low() {
    return Math.max(0, value * (1 - (errorPct + ciPct) / 100));
  }

  /** The upper end of the value's expected range: value * (1 + (errorPct + ciPct) / 100). */
  public double high() {
    return value * (1 + (errorPct + ciPct) / 100);
  }
}
