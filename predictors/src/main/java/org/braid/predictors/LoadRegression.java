package org.braid.predictors;

import java.util.ArrayDeque;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Log bandwidth regressed by least squares, over the last W transfers, on what the log itself tells
 * about each transfer before it starts: its size, how busy the server was (transfers started in the
 * preceding minute and ten minutes), the pause since the previous transfer, and the previous
 * transfer's bandwidth (a log-domain autoregression). On the SLAC records the minute count
 * correlates with log bandwidth down to -0.7 and the previous value up to 0.78.
 *
 * <p>Names: {@code LOAD<W>} (size and minute count), {@code LOADONLY<W>} (minute count), {@code
 * LOGAR<W>} (previous value and size), {@code CONTEXT<W>} (all five). Predictions are clamped to
 * the range of bandwidths in the window. Cost: O(k^2) per sample and O(W + k^3) per prediction for
 * k terms, with the normal equations kept up to date as the window slides.
 */
final class LoadRegression implements Predictor {

  static final int SIZE = 1;
  static final int LOAD = 2;
  static final int LAG = 4;
  static final int LONG_LOAD = 8;
  static final int GAP = 16;

  private static final long MINUTE = 60_000;
  private static final long TEN_MINUTES = 600_000;

  private final String name;
  private final int window;
  private final int features;

  LoadRegression(String name, int window, int features) {
    this.name = name;
    this.window = window;
    this.features = features;
  }

  @Override
  public String name() {
    return name;
  }

  private boolean has(int f) {
    return (features & f) != 0;
  }

  @Override
  public State start() {
    int p = 1 + Integer.bitCount(features);
    return new State() {
      private final double[][] x = new double[window][p];
      private final double[] logBw = new double[window];
      private final double[] bw = new double[window];
      private final ArrayDeque<Long> lastMinute = new ArrayDeque<>();
      private final ArrayDeque<Long> lastTenMinutes = new ArrayDeque<>();
      private final double[] row = new double[p];
      // running normal equations over the window, rebuilt every W additions to bound drift
      private final double[][] xtx = new double[p][p];
      private final double[] xty = new double[p];
      private double sumLog;
      private int sinceRebuild;
      private double lastLogBw = Double.NaN;
      private long lastTime;
      private int n;
      private int pos;

      private double count(ArrayDeque<Long> q, long t, long span) {
        while (!q.isEmpty() && q.peekFirst() < t - span) {
          q.pollFirst();
        }
        return Math.log1p(q.size());
      }

      /** The regressors of a transfer at (t, size), from the history so far. */
      private void features(long t, long size, double[] out) {
        int j = 0;
        out[j++] = 1;
        if (has(SIZE)) {
          out[j++] = Math.log(Math.max(1, size));
        }
        if (has(LOAD)) {
          out[j++] = count(lastMinute, t, MINUTE);
        }
        if (has(LAG)) {
          out[j++] = lastLogBw;
        }
        if (has(LONG_LOAD)) {
          out[j++] = count(lastTenMinutes, t, TEN_MINUTES);
        }
        if (has(GAP)) {
          out[j] = Math.log1p(Math.max(0, t - lastTime) / 1000.0);
        }
      }

      @Override
      public void add(long t, double v, long size) {
        double lb = Math.log(Math.max(v, 1e-9));
        // the first sample has no predecessor, so models with lag or gap only start from it
        if (!Double.isNaN(lastLogBw) || !(has(LAG) || has(GAP))) {
          if (n == window) {
            accumulate(x[pos], logBw[pos], -1);
          }
          features(t, size, x[pos]);
          logBw[pos] = lb;
          bw[pos] = v;
          accumulate(x[pos], lb, +1);
          pos = (pos + 1) % window;
          n = Math.min(window, n + 1);
          if (++sinceRebuild >= window) {
            rebuild();
          }
        }
        lastMinute.addLast(t);
        lastTenMinutes.addLast(t);
        lastLogBw = lb;
        lastTime = t;
      }

      private void accumulate(double[] xi, double y, int sign) {
        for (int r = 0; r < p; r++) {
          xty[r] += sign * xi[r] * y;
          for (int c = 0; c <= r; c++) {
            xtx[r][c] += sign * xi[r] * xi[c];
          }
        }
        sumLog += sign * y;
      }

      private void rebuild() {
        sinceRebuild = 0;
        for (double[] r : xtx) {
          java.util.Arrays.fill(r, 0);
        }
        java.util.Arrays.fill(xty, 0);
        sumLog = 0;
        for (int i = 0; i < n; i++) {
          accumulate(x[i], logBw[i], +1);
        }
      }

      @Override
      public double predict(long t, long size) {
        if (Double.isNaN(lastLogBw)) {
          return Double.NaN;
        }
        if (n == 0) {
          return Math.exp(lastLogBw);
        }
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (int i = 0; i < n; i++) {
          lo = Math.min(lo, bw[i]);
          hi = Math.max(hi, bw[i]);
        }
        double meanLog = sumLog / n;
        if (n < p + 3) {
          return Math.max(lo, Math.min(hi, Math.exp(meanLog)));
        }
        double[][] a = new double[p][p];
        double[] b = xty.clone();
        for (int r = 0; r < p; r++) {
          for (int c = 0; c <= r; c++) {
            a[r][c] = xtx[r][c];
            a[c][r] = xtx[r][c];
          }
          a[r][r] += 1e-6 * (a[r][r] + 1); // a touch of ridge keeps constant columns solvable
        }
        LUDecomposition lu = new LUDecomposition(new Array2DRowRealMatrix(a, false));
        if (!lu.getSolver().isNonSingular()) {
          return Math.max(lo, Math.min(hi, Math.exp(meanLog)));
        }
        RealVector coef = lu.getSolver().solve(new ArrayRealVector(b, false));
        features(t, size, row);
        double z = 0;
        for (int j = 0; j < p; j++) {
          z += coef.getEntry(j) * row[j];
        }
        return Math.max(lo, Math.min(hi, Math.exp(z)));
      }
    };
  }
}
