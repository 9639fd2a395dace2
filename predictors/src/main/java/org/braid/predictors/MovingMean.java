package org.braid.predictors;

/**
 * Arithmetic mean over all samples, the last N samples, or the samples of the last H hours (paper
 * 003 section 3.1: AVG, AVG5, AVG15, AVG25, AVG5hr, ...). A time window that holds no sample falls
 * back to the latest sample, so the predictor answers whenever it has seen anything. Cost: O(1) per
 * sample for all data, O(window) per prediction otherwise.
 */
final class MovingMean implements Predictor {
  private final String name;
  private final int lastCount;
  private final long lastMillis;

  MovingMean(String name, int lastCount, long lastMillis) {
    this.name = name;
    this.lastCount = lastCount;
    this.lastMillis = lastMillis;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    if (lastCount == Integer.MAX_VALUE && lastMillis == Long.MAX_VALUE) {
      return new AllData();
    }
    return new Windowed(new Window(lastCount, lastMillis));
  }

  private static final class AllData implements State {
    private double sum;
    private double compensation; // Kahan summation keeps long histories exact enough
    private long count;

    @Override
    public void add(long t, double v, long size) {
      double y = v - compensation;
      double s = sum + y;
      compensation = (s - sum) - y;
      sum = s;
      count++;
    }

    @Override
    public double predict(long t, long size) {
      return count == 0 ? Double.NaN : sum / count;
    }
  }

  private static final class Windowed implements State {
    private final Window window;
    private double latest = Double.NaN;

    Windowed(Window window) {
      this.window = window;
    }

    @Override
    public void add(long t, double v, long size) {
      window.add(t, v);
      latest = v;
    }

    @Override
    public double predict(long t, long size) {
      window.evict(t);
      return window.size() == 0 ? latest : window.sum() / window.size();
    }
  }
}
