package org.braid.predictors;

/** Running sums for a simple least-squares line y = a + b x. Not thread-safe. */
final class LeastSquares {
  private int n;
  private double sx;
  private double sy;
  private double sxx;
  private double sxy;

  void add(double x, double y) {
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }

  double meanX() {
    return sx / n;
  }

  double meanY() {
    return sy / n;
  }

  /** Whether at least three points with varying x determine the line. */
  boolean determined() {
    double mx = sx / n;
    double vx = sxx - n * mx * mx;
    return n >= 3 && vx > 1e-9 * Math.max(1, sxx);
  }

  /** The slope b; call only when {@link #determined()}. */
  double slope() {
    double mx = sx / n;
    double my = sy / n;
    return (sxy - n * mx * my) / (sxx - n * mx * mx);
  }

  /** The fitted y at x; call only when {@link #determined()}. */
  double at(double x) {
    return meanY() + slope() * (x - meanX());
  }
}
