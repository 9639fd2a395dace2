package org.braid.predictors;

import java.util.List;

/**
 * Adaptive selection among candidate predictors, after the Network Weather Service (Wolski, 1998):
 * every candidate predicts each new sample before it is added, and the candidates with the lowest
 * recent error make the forecast.
 *
 * <p>With one context, k = 1 and no shrinkage this is exactly the NWS rule. Braid's default adds
 * four things: errors are kept per context, the size class of the sample and the time since the
 * previous sample of that class (a burst of transfers behaves differently from a transfer after an
 * idle hour); old errors fade with a half-life instead of leaving a window all at once; a context's
 * error is shrunk toward the candidate's pooled error while the context has few samples; and the
 * forecast is the mean of the k best candidates' predictions, which is steadier than any single
 * one. Cost per sample: the sum of the candidates' costs plus O(c k) for c candidates.
 */
final class AdaptivePredictor implements Predictor {

  /**
   * How selection works. {@code window}: 0 scores all history, W > 0 the last W samples, -H fades
   * errors with a half-life of H samples. {@code best}: the k best are averaged (several values:
   * the k is itself chosen by past error). {@code prior}: weight, in samples, of the pooled error
   * in a context's score. {@code gapBoundsMillis}: pauses that split contexts (empty: one). {@code
   * weightPower}: 0 averages the k best equally, p > 0 weighs them by 1 / error^p. {@code classes}:
   * size classes that split contexts (null: one), the pause then counted within the class.
   */
  record Options(
      boolean squared,
      int window,
      int[] best,
      double prior,
      long[] gapBoundsMillis,
      double weightPower,
      SizeClasses classes) {
    Options(boolean squared, int window, int[] best, double prior, long[] gapBoundsMillis) {
      this(squared, window, best, prior, gapBoundsMillis, 0, null);
    }

    static final Options NWS = new Options(false, 0, new int[] {1}, 0, new long[0]);
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
    private final int gaps = options.gapBoundsMillis().length + 1;
    private final int classCount = options.classes() == null ? 1 : options.classes().count();
    private final Selector[] contexts = new Selector[gaps * classCount];
    private final long[] lastTimes = new long[classCount];
    private final boolean[] seen = new boolean[classCount];
    private final double[] predictions = new double[k];
    private final double[] scores = new double[k];
    private final int[] order = new int[k];
    private final int[] choices = options.best();
    // when several k are offered, the means of the k best are candidates too, with their own errors
    private final Selector meta;
    private final double[] metaPredictions;
    private boolean any;
    private String chosen = "";
    // the last ranking, reused by add() when it is for the sample predict() was just asked about
    private boolean ranked;
    private long rankedTime;
    private long rankedSize;
    private int rankedUsable;

    Adaptive() {
      for (int c = 0; c < k; c++) {
        states[c] = candidates.get(c).start();
      }
      for (int i = 0; i < contexts.length; i++) {
        contexts[i] = new Selector(k, options.squared(), options.window());
      }
      meta = new Selector(choices.length, options.squared(), options.window());
      metaPredictions = new double[choices.length];
    }

    private int classOf(long size) {
      return options.classes() == null ? 0 : options.classes().classOf(size);
    }

    /** The context of a sample: its size class, and the pause since that class's last sample. */
    private int context(long t, long size) {
      int c = classOf(size);
      long[] bounds = options.gapBoundsMillis();
      int i = 0;
      if (!seen[c]) {
        i = bounds.length; // the first sample of a class comes after the longest pause
      } else {
        long gap = t - lastTimes[c];
        while (i < bounds.length && gap > bounds[i]) {
          i++;
        }
      }
      return c * gaps + i;
    }

    @Override
    public void add(long t, double v, long size) {
      if (any) {
        int context = context(t, size);
        if (!(ranked && rankedTime == t && rankedSize == size)) {
          rank(context, t, size); // fills predictions and, for several k, metaPredictions
        }
        if (choices.length > 1) {
          meta.score(v, metaPredictions);
        }
        contexts[context].score(v, predictions);
      }
      for (int c = 0; c < k; c++) {
        states[c].add(t, v, size);
      }
      ranked = false;
      any = true;
      int c = classOf(size);
      lastTimes[c] = t;
      seen[c] = true;
    }

    /**
     * Ranks the candidates for a sample at (t, size) in the given context, fills {@code
     * predictions} and {@code metaPredictions} with the mean of the k best for each offered k.
     *
     * @return the number of candidates that could predict
     */
    private int rank(int context, long t, long size) {
      Selector here = contexts[context];
      double pooledCount = 0;
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
      int take = 0;
      for (int kk : choices) {
        take = Math.max(take, Math.min(kk, usable));
      }
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
      for (int m = 0; m < choices.length; m++) {
        int kk = Math.min(choices[m], usable);
        double sum = 0;
        double weights = 0;
        for (int i = 0; i < kk; i++) {
          // weight power 0: plain mean; above 0: better candidates weigh more, 1 / error^power
          double w =
              options.weightPower() == 0
                  ? 1
                  : Math.pow(Math.max(scores[order[i]], 1e-12), -options.weightPower());
          sum += w * predictions[order[i]];
          weights += w;
        }
        metaPredictions[m] = kk == 0 ? Double.NaN : sum / weights;
      }
      return usable;
    }

    @Override
    public double predict(long t, long size) {
      if (!any) {
        return Double.NaN;
      }
      if (!(ranked && rankedTime == t && rankedSize == size)) {
        rankedUsable = rank(context(t, size), t, size);
        ranked = true;
        rankedTime = t;
        rankedSize = size;
      }
      if (rankedUsable == 0) {
        return Double.NaN;
      }
      int m = 0;
      for (int j = 1; j < choices.length; j++) {
        if (meta.sum(j) < meta.sum(m)) {
          m = j;
        }
      }
      String inner = states[order[0]].chosen();
      chosen = inner.isEmpty() ? candidates.get(order[0]).name() : inner;
      return metaPredictions[m];
    }

    @Override
    public String chosen() {
      return chosen;
    }
  }
}
