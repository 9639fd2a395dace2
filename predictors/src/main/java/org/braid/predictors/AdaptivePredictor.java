package org.braid.predictors;

import java.util.List;

/**
 * Adaptive selection among candidate predictors, after the Network Weather Service (Wolski,
 * 1998): every candidate predicts each new sample before it is added, and the candidates with the
 * lowest recent error make the forecast.
 *
 * <p>With one context, k = 1 and no shrinkage this is exactly the NWS rule. Braid's default adds
 * three things: errors are kept per context, the time since the previous sample (a burst of
 * transfers behaves differently from a transfer after an idle hour); a context's error is shrunk
 * toward the candidate's pooled error while the context has few samples; and the forecast is the
 * mean of the k best candidates' predictions, which is steadier than any single one. Cost per
 * sample: the sum of the candidates' costs plus O(c log c) for c candidates.
 */
final class AdaptivePredictor implements Predictor {

  /** How selection works. {@code gapBoundsMillis} splits contexts; empty means one context. */
  record Options(boolean squared, int window, int best, double prior, long[] gapBoundsMillis) {
    static final Options NWS = new Options(false, 0, 1, 0, new long[0]);
  }

  private final String name;
  private final List<Predictor> candidates;
  private final Options options;

  AdaptivePredictor(String name, List<Predictor> candidates, Options options) {
    this.name = name;
    this.candidates = List.copyOf(candidates);
    this.options = options;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public State start() {
    return new Adaptive();
  }

  private final class Adaptive implements State {
    private final int k = candidates.size();
    private final State[] states = new State[k];
    private final Selector[] contexts = new Selector[options.gapBoundsMillis().length + 1];
    private final double[] predictions = new double[k];
    private final double[] scores = new double[k];
    private final int[] order = new int[k];
    private boolean any;
    private long lastTime;
    private String chosen = "";

    Adaptive() {
      for (int c = 0; c < k; c++) {
        states[c] = candidates.get(c).start();
      }
      for (int i = 0; i < contexts.length; i++) {
        contexts[i] = new Selector(k, options.squared(), options.window());
      }
    }

    private int context(long t) {
      long gap = t - lastTime;
      long[] bounds = options.gapBoundsMillis();
      int i = 0;
      while (i < bounds.length && gap > bounds[i]) {
        i++;
      }
      return i;
    }

    @Override
    public void add(long t, double v, long size) {
      if (any) {
        for (int c = 0; c < k; c++) {
          predictions[c] = states[c].predict(t, size);
        }
        contexts[context(t)].score(v, predictions);
      }
      for (int c = 0; c < k; c++) {
        states[c].add(t, v, size);
      }
      any = true;
      lastTime = t;
    }

    @Override
    public double predict(long t, long size) {
      if (!any) {
        return Double.NaN;
      }
      Selector here = contexts[context(t)];
      int pooledCount = 0;
      for (Selector s : contexts) {
        pooledCount += s.count();
      }
      int usable = 0;
      for (int c = 0; c < k; c++) {
        predictions[c] = states[c].predict(t, size);
        if (Double.isNaN(predictions[c])) {
          continue;
        }
        double pooled = 0;
        for (Selector s : contexts) {
          pooled += s.sum(c);
        }
        double pooledMean = pooledCount == 0 ? 0 : pooled / pooledCount;
        double denominator = here.count() + options.prior();
        scores[c] =
            denominator == 0 ? 0 : (here.sum(c) + options.prior() * pooledMean) / denominator;
        order[usable++] = c;
      }
      if (usable == 0) {
        return Double.NaN;
      }
      int take = Math.min(options.best(), usable);
      // stable partial selection: move the i-th best to slot i, shifting the rest right
      for (int i = 0; i < take; i++) {
        int min = i;
        for (int j = i + 1; j < usable; j++) {
          if (scores[order[j]] < scores[order[min]]) {
            min = j;
          }
        }
        int winner = order[min];
        System.arraycopy(order, i, order, i + 1, min - i);
        order[i] = winner;
      }
      double sum = 0;
      for (int i = 0; i < take; i++) {
        sum += predictions[order[i]];
      }
      String inner = states[order[0]].chosen();
      chosen = inner.isEmpty() ? candidates.get(order[0]).name() : inner;
      return sum / take;
    }

    @Override
    public String chosen() {
      return chosen;
    }
  }
}
