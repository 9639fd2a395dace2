package org.braid.predictors;

import java.util.Arrays;

/**
 * Predicts from the relation between transfer size and bandwidth over the last W transfers (Braid's
 * addition to paper 003, whose size classes are a coarse form of the same idea):
 *
 * <ul>
 *   <li>{@code TLIN<W>}: transfer time = a + b * size by least squares (a fixed start-up cost plus
 *       a rate), predicting size / (a + b * size);
 *   <li>{@code LOGSIZE<W>}: log bandwidth = a + b * log size by least squares;
 *   <li>{@code NEAR<K>/<W>}: the median bandwidth of the K transfers closest in log size.
 * </ul>
 *
 * Predictions are clamped to the range of bandwidths in the window, so a fit never extrapolates
 * beyond what was seen. Samples of unknown size count as one byte. Cost: O(W) per prediction (O(W
 * k) for the nearest-size median).
 */
final class SizeAware implements Predictor {

  enum Mode {
    TIME_LINEAR,
    LOG_LOG,
    NEAREST
  }

  private final String name;
  private final Mode mode;
  private final int window;
  private final int neighbours;

  SizeAware(String name, Mode mode, int window, int neighbours) {
    this.name = name;
    this.mode = mode;
    this.window = window;
    this.neighbours = neighbours;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return new State() {
      private final double[] logSize = new double[window];
      private final double[] sizes = new double[window];
      private final double[] bw = new double[window];
      private final double[] dist = new double[window];
      private final double[] scratch = new double[window];
      private int n;
      private int pos;

      @Override
      public void add(long t, double v, long size) {
        double s = Math.max(1, size);
        sizes[pos] = s;
        logSize[pos] = Math.log(s);
        bw[pos] = v;
        pos = (pos + 1) % window;
        n = Math.min(window, n + 1);
      }

      @Override
      public double predict(long t, long size) {
        if (n == 0) {
          return Double.NaN;
        }
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double mean = 0;
        for (int i = 0; i < n; i++) {
          lo = Math.min(lo, bw[i]);
          hi = Math.max(hi, bw[i]);
          mean += bw[i];
        }
        mean /= n;
        double s = Math.max(1, size);
        double p =
            switch (mode) {
              case TIME_LINEAR -> timeLinear(s, mean);
              case LOG_LOG -> logLog(s, mean);
              case NEAREST -> nearest(Math.log(s));
            };
        return Math.max(lo, Math.min(hi, p));
      }

      private double timeLinear(double s, double mean) {
        // time in seconds against size in MB keeps the sums well scaled
        LeastSquares fit = new LeastSquares();
        for (int i = 0; i < n; i++) {
          fit.add(sizes[i] / 1e6, sizes[i] / Math.max(bw[i], 1e-9));
        }
        if (!fit.determined()) {
          return mean;
        }
        double time = fit.at(s / 1e6);
        return time > 0 ? s / time : mean;
      }

      private double logLog(double s, double mean) {
        LeastSquares fit = new LeastSquares();
        for (int i = 0; i < n; i++) {
          fit.add(logSize[i], Math.log(Math.max(bw[i], 1e-9)));
        }
        return Math.exp(fit.determined() ? fit.at(Math.log(s)) : fit.meanY());
      }

      private double nearest(double ls) {
        // partial selection of the k closest: O(W k), no boxing
        int k = Math.min(neighbours, n);
        for (int i = 0; i < n; i++) {
          dist[i] = Math.abs(logSize[i] - ls);
        }
        for (int j = 0; j < k; j++) {
          int best = -1;
          for (int i = 0; i < n; i++) {
            if (dist[i] >= 0 && (best < 0 || dist[i] < dist[best])) {
              best = i;
            }
          }
          scratch[j] = bw[best];
          dist[best] = -1; // taken
        }
        Arrays.sort(scratch, 0, k);
        return MovingMedian.medianOfSorted(scratch, k);
      }
    };
  }
}
