package org.braid.predictors;

/**
 * Keeps each candidate's error on the samples it had not seen, over the last W scored samples (or
 * all of them), and ranks the candidates by it. The Network Weather Service's selection rule is one
 * selector with k = 1 (Wolski 1998). Not thread-safe.
 */
final class Selector {
  private final int candidates;
  private final boolean squared;
  private final int window; // 0: all history; negative: errors decay with half-life -window
  private final double decay;
  private double decayedCount;
  private final double[] sums;
  private final double[][] ring; // [candidate][window]
  private int ringPos;
  private int scored;
  private int sinceRecompute;

  Selector(int candidates, boolean squared, int window) {
    this.candidates = candidates;
    this.squared = squared;
    this.window = window;
    this.sums = new double[candidates];
    this.ring = window > 0 ? new double[candidates][window] : null;
    this.decay = window < 0 ? Math.pow(0.5, 1.0 / -window) : 1;
  }

  /** Scores one sample: {@code predictions[c]} (NaN when candidate c could not predict). */
  void score(double measured, double[] predictions) {
    int fill = ring == null ? 0 : Math.min(scored, window);
    for (int c = 0; c < candidates; c++) {
      double p = predictions[c];
      // a candidate that could not predict is charged as if it had predicted zero
      double e = Math.abs(measured - (Double.isNaN(p) ? 0 : p));
      if (squared) {
        e = e * e;
      }
      if (decay < 1) {
        sums[c] *= decay;
      }
      if (ring != null) {
        if (fill == window) {
          sums[c] -= ring[c][ringPos];
        }
        ring[c][ringPos] = e;
      }
      sums[c] += e;
    }
    scored++;
    decayedCount = decayedCount * decay + 1;
    if (ring != null) {
      ringPos = (ringPos + 1) % window;
      if (++sinceRecompute >= window) { // bound the floating-point drift of the running sums
        sinceRecompute = 0;
        int n = Math.min(scored, window);
        for (int c = 0; c < candidates; c++) {
          double s = 0;
          for (int k = 0; k < n; k++) {
            s += ring[c][k];
          }
          sums[c] = s;
        }
      }
    }
  }

  /** The number of samples in the current error window. */
  double count() {
    if (decay < 1) {
      return decayedCount;
    }
    return ring == null ? scored : Math.min(scored, window);
  }

  /** Candidate c's summed error over the window. */
  double sum(int c) {
    return sums[c];
  }
}
