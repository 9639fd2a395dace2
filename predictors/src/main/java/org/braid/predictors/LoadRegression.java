package org.braid.predictors;

import java.util.ArrayDeque;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Log bandwidth regressed on log size and on the log of one plus the number of transfers that
 * started in the preceding minute, over the last W transfers ({@code LOAD<W>}; {@code
 * LOADONLY<W>} without the size term). The start times in the log itself reveal how busy the
 * server is, with no probe needed: on the SLAC records that count correlates with bandwidth down
 * to -0.7. Predictions are clamped to the range of bandwidths in the window. Cost: O(W) per
 * prediction.
 */
final class LoadRegression implements Predictor {

  static final long LOAD_WINDOW_MILLIS = 60_000;

  private final String name;
  private final int window;
  private final boolean withSize;

  LoadRegression(String name, int window, boolean withSize) {
    this.name = name;
    this.window = window;
    this.withSize = withSize;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return new State() {
      private final double[] logSize = new double[window];
      private final double[] load = new double[window];
      private final double[] logBw = new double[window];
      private final double[] bw = new double[window];
      private final ArrayDeque<Long> recentStarts = new ArrayDeque<>();
      private int n;
      private int pos;

      private double loadAt(long t) {
        while (!recentStarts.isEmpty() && recentStarts.peekFirst() < t - LOAD_WINDOW_MILLIS) {
          recentStarts.pollFirst();
        }
        return Math.log1p(recentStarts.size());
      }

      @Override
      public void add(long t, double v, long size) {
        load[pos] = loadAt(t);
        logSize[pos] = Math.log(Math.max(1, size));
        logBw[pos] = Math.log(Math.max(v, 1e-9));
        bw[pos] = v;
        pos = (pos + 1) % window;
        n = Math.min(window, n + 1);
        recentStarts.addLast(t);
      }

      @Override
      public double predict(long t, long size) {
        if (n == 0) {
          return Double.NaN;
        }
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double meanLog = 0;
        for (int i = 0; i < n; i++) {
          lo = Math.min(lo, bw[i]);
          hi = Math.max(hi, bw[i]);
          meanLog += logBw[i];
        }
        meanLog /= n;
        int p = withSize ? 3 : 2;
        if (n < p + 3) {
          return Math.max(lo, Math.min(hi, Math.exp(meanLog)));
        }
        double[][] a = new double[p][p];
        double[] b = new double[p];
        double[] x = new double[p];
        for (int i = 0; i < n; i++) {
          x[0] = 1;
          x[1] = load[i];
          if (withSize) {
            x[2] = logSize[i];
          }
          for (int r = 0; r < p; r++) {
            b[r] += x[r] * logBw[i];
            for (int c = 0; c < p; c++) {
              a[r][c] += x[r] * x[c];
            }
          }
        }
        for (int r = 0; r < p; r++) {
          a[r][r] += 1e-6 * (a[r][r] + 1); // a touch of ridge keeps constant columns solvable
        }
        LUDecomposition lu = new LUDecomposition(new Array2DRowRealMatrix(a, false));
        if (!lu.getSolver().isNonSingular()) {
          return Math.max(lo, Math.min(hi, Math.exp(meanLog)));
        }
        RealVector coef = lu.getSolver().solve(new ArrayRealVector(b, false));
        double z = coef.getEntry(0) + coef.getEntry(1) * loadAt(t);
        if (withSize) {
          z += coef.getEntry(2) * Math.log(Math.max(1, size));
        }
        return Math.max(lo, Math.min(hi, Math.exp(z)));
      }
    };
  }
}
