package org.braid.predictors;

/**
 * Exponential smoothing as in the Network Weather Service: s = s + g * (x - s), started at the
 * first sample. NWS runs gains from 0.05 to 0.75. O(1).
 */
final class ExponentialSmoothing implements Predictor {
  private final String name;
  private final double gain;

  ExponentialSmoothing(String name, double gain) {
    this.name = name;
    this.gain = gain;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return new State() {
      private double s = Double.NaN;

      @Override
      public void add(long t, double v, long size) {
        s = Double.isNaN(s) ? v : s + gain * (v - s);
      }

      @Override
      public double predict(long t, long size) {
        return s;
      }
    };
  }
}
