package org.braid.predictors;

/** The last value seen (paper 003: LV). O(1). */
final class LastValue implements Predictor {
  @Override
  public String name() {
    return PredictorName.render(PredictorName.Family.LV);
  }

  @Override
  public State start() {
    return new State() {
      private double last = Double.NaN;

      @Override
      public void add(long t, double v, long size) {
        last = v;
      }

      @Override
      public double predict(long t, long size) {
        return last;
      }
    };
  }
}
