package org.braid.predictors;

/**
 * Context-sensitive filtering (paper 003 section 3.3.3): runs one state of the inner predictor per
 * size class and predicts a sample from its own class's history. While a class has no history
 * yet, the prediction comes from a state fed with every sample, so the predictor answers whenever
 * the unfiltered one would.
 */
final class SizeClassed implements Predictor {
  private final Predictor inner;
  private final SizeClasses classes;

  SizeClassed(Predictor inner, SizeClasses classes) {
    this.inner = inner;
    this.classes = classes;
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
        if (counts[c] > 0) {
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
