package org.braid.predictors;

/**
 * Context-sensitive filtering (paper 003 section 3.3.3): runs one state of the inner predictor per
 * size class and predicts a sample from its own class's history. While a class has no history yet
 * (or fewer samples than a minimum, for Braid's default), the prediction comes from a state fed
 * with every sample, so the predictor answers whenever the unfiltered one would.
 */
final class SizeClassed implements Predictor {
  private final Predictor inner;
  private final SizeClasses classes;
  private final int minHistory;

  SizeClassed(Predictor inner, SizeClasses classes) {
    this(inner, classes, 1);
  }

  /** With {@code minHistory} above 1, a class is trusted only once it holds that many samples. */
  SizeClassed(Predictor inner, SizeClasses classes, int minHistory) {
    this.inner = inner;
    this.classes = classes;
    this.minHistory = minHistory;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public State start() {
    State[] perClass = new State[classes.count()];
    int[] counts = new int[classes.count()];
    for (int i = 0; i < perClass.length; i++) {
      perClass[i] = inner.start();
    }
    State all = inner.start();
    return new State() {
      private String chosen = "";

      @Override
      public void add(long t, double v, long size) {
        int c = classes.classOf(size);
        perClass[c].add(t, v, size);
        counts[c]++;
        all.add(t, v, size);
      }

      @Override
      public double predict(long t, long size) {
        int c = classes.classOf(size);
        if (counts[c] >= minHistory) {
          double p = perClass[c].predict(t, size);
          if (!Double.isNaN(p)) {
            chosen = perClass[c].chosen();
            return p;
          }
        }
        chosen = all.chosen();
        return all.predict(t, size);
      }

      @Override
      public String chosen() {
        return chosen;
      }
    };
  }
}
