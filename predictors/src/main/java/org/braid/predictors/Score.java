package org.braid.predictors;

/**
 * How well a predictor did on a series, in paper 003's terms (section 3.3.2).
 *
 * @param count the number of predictions scored
 * @param errorPct normalized percent error: sum|measured - predicted| / (count * mean measured) *
 *     100; 0 when nothing was scored
 * @param ciPct half-width of the 95% confidence interval of {@code errorPct} (Student's t over the
 *     per-prediction normalized errors), in percentage points; 0 with fewer than two predictions
 * @param meanMeasured the mean of the measured values that were scored
 */
public record Score(int count, double errorPct, double ciPct, double meanMeasured) {

  /** The score of no predictions at all. */
  public static final Score NONE = new Score(0, 0, 0, 0);
}
