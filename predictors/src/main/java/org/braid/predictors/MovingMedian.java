package org.braid.predictors;

import java.util.PriorityQueue;

/**
 * Median over all samples or over the last N samples (paper 003 section 3.1: MED, MED5, MED15,
 * MED25), with the paper's rule for an even count (the mean of the two middle values). Cost:
 * O(log n) per sample for all data (two heaps), O(N log N) per prediction for a window of N.
 */
final class MovingMedian implements Predictor {
  private final String name;
  private final int lastCount;

  MovingMedian(String name, int lastCount) {
    this.name = name;
    this.lastCount = lastCount;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return lastCount == Integer.MAX_VALUE ? new AllData() : new Windowed(lastCount);
  }

  /** The median of the first n values of a sorted array. */
  static double medianOfSorted(double[] a, int n) {
    if (n == 0) {
      return Double.NaN;
    }
    int mid = n / 2;
    return (n % 2 == 1) ? a[mid] : (a[mid - 1] + a[mid]) / 2;
  }

  private static final class AllData implements State {
    // lower half in a max-heap, upper half in a min-heap; lower holds the extra element
    private final PriorityQueue<Double> lower = new PriorityQueue<>((a, b) -> Double.compare(b, a));
    private final PriorityQueue<Double> upper = new PriorityQueue<>();

    @Override
    public void add(long t, double v, long size) {
      if (lower.isEmpty() || v <= lower.peek()) {
        lower.add(v);
      } else {
        upper.add(v);
      }
      if (lower.size() > upper.size() + 1) {
        upper.add(lower.poll());
      } else if (upper.size() > lower.size()) {
        lower.add(upper.poll());
      }
    }

    @Override
    public double predict(long t, long size) {
      if (lower.isEmpty()) {
        return Double.NaN;
      }
      if (lower.size() > upper.size()) {
        return lower.peek();
      }
      return (lower.peek() + upper.peek()) / 2;
    }
  }

  private static final class Windowed implements State {
    private final Window window;
    private double[] scratch;

    Windowed(int count) {
      window = Window.lastCount(count);
      scratch = new double[Math.min(count, 1024)];
    }

    @Override
    public void add(long t, double v, long size) {
      window.add(t, v);
    }

    @Override
    public double predict(long t, long size) {
      scratch = window.sorted(scratch);
      return medianOfSorted(scratch, window.size());
    }
  }
}
