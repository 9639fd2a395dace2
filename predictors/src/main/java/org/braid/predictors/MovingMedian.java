package org.braid.predictors;

/**
 * Median over all samples or over the last N samples (paper 003 section 3.1: MED, MED5, MED15,
 * MED25), with the paper's rule for an even count (the mean of the two middle values). Cost: O(log
 * n) per sample for all data (two heaps), O(N log N) per prediction for a window of N.
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
    // lower half in a max-heap, upper half in a min-heap (primitive arrays); lower may hold one
    // more
    private final DoubleHeap lower = new DoubleHeap(true);
    private final DoubleHeap upper = new DoubleHeap(false);

    @Override
    public void add(long t, double v, long size) {
      if (lower.size() == 0 || v <= lower.peek()) {
        lower.push(v);
      } else {
        upper.push(v);
      }
      if (lower.size() > upper.size() + 1) {
        upper.push(lower.pop());
      } else if (upper.size() > lower.size()) {
        lower.push(upper.pop());
      }
    }

    @Override
    public double predict(long t, long size) {
      if (lower.size() == 0) {
        return Double.NaN;
      }
      if (lower.size() > upper.size()) {
        return lower.peek();
      }
      return (lower.peek() + upper.peek()) / 2;
    }
  }

  /** A binary heap of doubles: the largest on top when {@code max}, else the smallest. */
  static final class DoubleHeap {
    private final boolean max;
    private double[] a = new double[16];
    private int n;

    DoubleHeap(boolean max) {
      this.max = max;
    }

    int size() {
      return n;
    }

    double peek() {
      return a[0];
    }

    private boolean above(double x, double y) {
      return max ? x > y : x < y;
    }

    void push(double v) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, n * 2);
      }
      int i = n++;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!above(v, a[parent])) {
          break;
        }
        a[i] = a[parent];
        i = parent;
      }
      a[i] = v;
    }

    double pop() {
      double top = a[0];
      double v = a[--n];
      int i = 0;
      while (true) {
        int child = 2 * i + 1;
        if (child >= n) {
          break;
        }
        if (child + 1 < n && above(a[child + 1], a[child])) {
          child++;
        }
        if (!above(a[child], v)) {
          break;
        }
        a[i] = a[child];
        i = child;
      }
      a[i] = v;
      return top;
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
