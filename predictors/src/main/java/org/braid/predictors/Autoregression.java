package org.braid.predictors;

/**
 * First-order autoregression G'(t) = a + b * G(t-1), with a and b fitted by least squares on the
 * pairs of successive samples, over all data or over the pairs whose samples both fall in the last
 * D days (paper 003 section 3.1: AR, AR5d, AR10d). With fewer than three pairs, or successive
 * values that do not vary, the fit is undetermined and the predictor answers with the mean of what
 * it has. Cost: O(1) per sample for all data, O(window) per prediction otherwise.
 */
final class Autoregression implements Predictor {
  private final String name;
  private final long lastMillis;

  Autoregression(String name, long lastMillis) {
    this.name = name;
    this.lastMillis = lastMillis;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return lastMillis == Long.MAX_VALUE ? new AllData() : new Windowed(lastMillis);
  }

  /** Fits y = a + b x from centred sums and predicts at x. */
  static double fit(long n, double sx, double sy, double sxx, double sxy, double x, double shift) {
    if (n < 3) {
      return Double.NaN;
    }
    double mx = sx / n;
    double my = sy / n;
    double varx = sxx - n * mx * mx;
    if (!(varx > 1e-12 * Math.max(1, sxx))) {
      return my + shift;
    }
    double b = (sxy - n * mx * my) / varx;
    double a = my - b * mx;
    return a + b * (x - shift) + shift;
  }

  private static final class AllData implements State {
    private double shift = Double.NaN; // values are centred on the first one for precision
    private double prev = Double.NaN;
    private long pairs;
    private double sx;
    private double sy;
    private double sxx;
    private double sxy;
    private double sum;
    private long count;

    @Override
    public void add(long t, double v, long size) {
      if (Double.isNaN(shift)) {
        shift = v;
      }
      double y = v - shift;
      if (!Double.isNaN(prev)) {
        pairs++;
        sx += prev;
        sy += y;
        sxx += prev * prev;
        sxy += prev * y;
      }
      prev = y;
      sum += y;
      count++;
    }

    @Override
    public double predict(long t, long size) {
      if (count == 0) {
        return Double.NaN;
      }
      double p = fit(pairs, sx, sy, sxx, sxy, prev + shift, shift);
      return Double.isNaN(p) ? sum / count + shift : Math.max(0, p);
    }
  }

  private static final class Windowed implements State {
    // a pair is timed by its earlier sample, so it leaves the window when either sample would
    private final Window pairsX; // time of the earlier sample, earlier value
    private final Window pairsY; // time of the earlier sample, later value
    private double prev = Double.NaN;
    private long prevTime;

    Windowed(long millis) {
      pairsX = Window.lastMillis(millis);
      pairsY = Window.lastMillis(millis);
    }

    @Override
    public void add(long t, double v, long size) {
      if (!Double.isNaN(prev)) {
        pairsX.add(prevTime, prev);
        pairsY.add(prevTime, v);
      }
      prev = v;
      prevTime = t;
    }

    @Override
    public double predict(long t, long size) {
      if (Double.isNaN(prev)) {
        return Double.NaN;
      }
      pairsX.evict(t);
      pairsY.evict(t);
      int n = pairsY.size();
      if (n == 0) {
        return prev;
      }
      double shift = pairsY.value(0);
      double sx = 0;
      double sy = 0;
      double sxx = 0;
      double sxy = 0;
      for (int k = 0; k < n; k++) {
        double x = pairsX.value(k) - shift;
        double y = pairsY.value(k) - shift;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
      }
      double p = fit(n, sx, sy, sxx, sxy, prev, shift);
      return Double.isNaN(p) ? sy / n + shift : Math.max(0, p);
    }
  }
}
