package org.braid.predictors;

/**
 * The Network Weather Service's trimmed median: sort the last N samples, drop the given fraction
 * from each end, and average what is left. A trim of 0 is the window mean; a trim near 0.5 leaves
 * the middle one or two values, the window median. Cost: O(N log N) per prediction.
 */
final class TrimmedMedian implements Predictor {
  private final String name;
  private final int lastCount;
  private final double trim;

  TrimmedMedian(String name, int lastCount, double trim) {
    this.name = name;
    this.lastCount = lastCount;
    this.trim = trim;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    Window window = Window.lastCount(lastCount);
    return new State() {
      private double[] scratch = new double[Math.min(lastCount, 1024)];

      @Override
      public void add(long t, double v, long size) {
        window.add(t, v);
      }

      @Override
      public double predict(long t, long size) {
        int n = window.size();
        if (n == 0) {
          return Double.NaN;
        }
        scratch = window.sorted(scratch);
        int drop = (int) Math.floor(trim * n);
        if (2 * drop >= n) {
          return MovingMedian.medianOfSorted(scratch, n);
        }
        double s = 0;
        for (int i = drop; i < n - drop; i++) {
          s += scratch[i];
        }
        return s / (n - 2 * drop);
      }
    };
  }
}
