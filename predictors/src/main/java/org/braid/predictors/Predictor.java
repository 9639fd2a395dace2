package org.braid.predictors;

/**
 * One forecasting rule: mean, median, last value, autoregression, exponential smoothing, or a rule
 * that selects among others.
 *
 * <p>A predictor is a stateless, thread-safe description; {@link #start()} gives the incremental
 * state that holds a history. Replaying a series through one state costs each predictor no more
 * than its window, so a whole evaluation stays near linear in the series length.
 */
public interface Predictor {

  /** The predictor's name as in paper 003's Figure 4 ({@code AVG25}, {@code MED}, ...). */
  String name();

  /** A new state with an empty history. */
  State start();

  /**
   * Predicts the value of a sample at the given time and size from a whole history.
   *
   * @return the prediction, or NaN if the history is empty
   */
  default double predict(Series history, long timeMillis, long size) {
    State s = start();
    for (int i = 0; i < history.size(); i++) {
      s.add(history.timeMillis(i), history.value(i), history.sizeBytes(i));
    }
    return s.predict(timeMillis, size);
  }

  /** The history of one predictor, fed one sample at a time in time order. Not thread-safe. */
  interface State {

    /** Adds a sample after all samples added before. */
    void add(long timeMillis, double value, long size);

    /**
     * Predicts the value of a sample at the given time (not earlier than the last one added) and
     * size.
     *
     * @return the prediction, or NaN when no sample has been added yet
     */
    double predict(long timeMillis, long size);

    /** The rule that made the last prediction: this predictor's name unless it selects others. */
    default String chosen() {
      return "";
    }
  }
}
