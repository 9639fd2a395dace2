package org.braid.broker;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.braid.predictors.Forecast;
import org.braid.predictors.Forecaster;
import org.braid.predictors.Series;

/**
 * Forecasts a replica's rate from this client's samples of its endpoint ({@link HistoryIndex}),
 * accounting for co-allocation, and keeps the forecast within what was ever measured.
 *
 * <p><b>Shared and solo samples.</b> A replica measured while other replicas (of the same download
 * or of another one) were transferring to this client at the same time delivered a lower bound of
 * what it delivers alone: the client's own link may have been the limit. Whether it was is known
 * only with the client's capacity C ({@link Broker.Builder#clientCapacity}): a shared sample is
 * <i>censored</i> when the samples running at the same time (overlapping by at least half the
 * shorter span) together reached {@value #SATURATED} C, and this replica's rate per connection was
 * within {@value #CEILING} of the highest among them (with max-min fair sharing, the replicas held
 * back by the link all run at that level; one below it was held back by itself and measured its own
 * rate). A censored sample counts as the larger of its rate and the median of the (up to {@value
 * #LIFT_WINDOW}) values before it. Every other sample (solo ones, shared ones while the link had
 * room, and every sample when C is unknown) counts as measured: without C, a link limit cannot be
 * told from a slow server, and treating shared samples as mere bounds would hide a server that
 * slowed down.
 *
 * <p><b>The forecast</b> comes from the configured forecaster over these values once there are as
 * many as its training size (paper 003: 15), with its accuracy triplet (the model's one-step error
 * over the series and its 95% confidence interval); before that from {@link #SHORT}, the median of
 * the last three with its own one-step error; from a single sample, that sample without an error
 * estimate.
 *
 * <p><b>Sanity limits.</b> A forecast above the highest rate ever measured from the endpoint (all
 * its samples), or above C when known, is clamped to that limit; one below the lowest ever measured
 * is raised to it. Either way it is flagged ({@link Result#clamp()}) unless it was within {@link
 * #CLAMP_SLACK} of the limit (and not above C), so that a model's extrapolation never ranks a
 * replica first on a rate nobody saw.
 *
 * <p>Immutable and thread-safe.
 */
final class HistoryForecaster {

  /** The share of the client's capacity at which concurrent samples saturated its link. */
  static final double SATURATED = 0.9;

  /** The share of the highest per-connection rate at which a shared sample hit the fair share. */
  static final double CEILING = 0.9;

  /** How many earlier values lift a censored sample. */
  static final int LIFT_WINDOW = 5;

  /** The predictor a single sample is reported as: that sample, without an error estimate. */
  static final String ONE = "LV";

  /**
   * The model below the configured forecaster's training size: the median of the last three
   * samples, its error its own one-step error over them (the paper's triplet from the third sample
   * on). Downloads are few, and a median of three follows a replica that changed speed within two.
   */
  static final Forecaster SHORT = Forecaster.builder().model("MED3").trainingSize(2).build();

  /** The most recent samples a forecast uses (the sanity limits look at all). */
  static final int MAX_HISTORY = 200;

  /**
   * A forecast, and why it was clamped (null when it was not).
   *
   * @param forecast the forecast, within the sanity limits
   * @param clamp e.g. "forecast 25.52 MB/s clamped to 10.20 MB/s, the most ever measured from
   *     http://m:80", or null
   * @param trained whether the configured forecaster made it (the history had its training size);
   *     false for {@link #SHORT} and single-sample forecasts
   */
  record Result(Forecast forecast, String clamp, boolean trained) {}

  /**
   * How far outside the measured range a forecast may be without a flag: it is still kept within
   * the range, but closer than this the difference is below what a download measures.
   */
  static final double CLAMP_SLACK = 0.01;

  private final Forecaster forecaster;
  private final double capacity;

  /** A forecaster over the given model; {@code capacity} infinite when unknown. */
  HistoryForecaster(Forecaster forecaster, double capacity) {
    this.forecaster = forecaster;
    this.capacity = capacity;
  }

  /**
   * The forecast of endpoint {@code key} for a file of {@code size} bytes at {@code at}, from its
   * samples {@code mine} (start order) among every sample {@code all} (end order); null when it has
   * none.
   */
  Result forecast(
      String key, List<TransferRecord> mine, List<TransferRecord> all, long size, Instant at) {
    if (mine.isEmpty()) {
      return null;
    }
    double[] v = values(mine, all);
    int from = Math.max(0, v.length - MAX_HISTORY);
    Forecast f = forecast(key, mine, v, from, size, at);
    if (f == null) {
      return null;
    }
    boolean trained = v.length - from >= forecaster.trainingSize();
    double hi = Double.NEGATIVE_INFINITY;
    double lo = Double.POSITIVE_INFINITY;
    for (TransferRecord t : mine) {
      hi = Math.max(hi, t.bandwidth());
      lo = Math.min(lo, t.bandwidth());
    }
    String why = null;
    double value = f.value();
    if (value > Math.min(hi, capacity)) {
      why = hi <= capacity ? "the most ever measured from " + key : "this client's capacity";
      value = Math.min(hi, capacity);
    } else if (value < lo) {
      why = "the least ever measured from " + key;
      value = lo;
    }
    if (why == null) {
      return new Result(f, null, trained);
    }
    Forecast kept =
        new Forecast(
            f.predictor(),
            value,
            f.errorPct(),
            f.ciPct(),
            f.history(),
            f.scored(),
            f.chosen(),
            Forecast.Status.OK);
    if (Math.abs(f.value() / value - 1) <= CLAMP_SLACK && value <= capacity) {
      return new Result(kept, null, trained);
    }
    String note =
        String.format(
            Locale.ROOT,
            "forecast %.2f MB/s clamped to %.2f MB/s, %s",
            f.value() / 1e6,
            value / 1e6,
            why);
    return new Result(kept, note, trained);
  }

  private Forecast forecast(
      String key, List<TransferRecord> mine, double[] v, int from, long size, Instant at) {
    int n = v.length - from;
    if (n == 1) {
      return new Forecast(ONE, v[from], 0, 0, 1, 0, ONE, Forecast.Status.OK);
    }
    Forecaster model = n >= forecaster.trainingSize() ? forecaster : SHORT;
    Series.Builder b = Series.builder(key);
    for (int i = from; i < v.length; i++) {
      JournalLine l = mine.get(i).journal();
      b.add(mine.get(i).start(), v[i], l == null ? mine.get(i).size() : l.fileSize());
    }
    Forecast f = model.forecast(b.build(), size < 0 ? 0 : size, at);
    return f.isAvailable() ? f : null;
  }

  /** The samples' values: measured rates, censored ones lifted (see the class comment). */
  double[] values(List<TransferRecord> mine, List<TransferRecord> all) {
    double[] v = new double[mine.size()];
    for (int i = 0; i < v.length; i++) {
      double r = mine.get(i).bandwidth();
      if (Double.isFinite(capacity) && censored(mine.get(i), all) && i > 0) {
        r = Math.max(r, median(Arrays.copyOfRange(v, Math.max(0, i - LIFT_WINDOW), i)));
      }
      v[i] = r;
    }
    return v;
  }

  /**
   * Whether a sample ran with others at the saturated link's fair-share level ({@code all} holds
   * the sample itself).
   */
  boolean censored(TransferRecord s, List<TransferRecord> all) {
    int concurrent = 0;
    double total = 0;
    double highest = 0;
    for (TransferRecord t : all) {
      if (t != s && !overlapping(s, t)) {
        continue;
      }
      concurrent++;
      total += t.bandwidth();
      highest = Math.max(highest, perConnection(t));
    }
    if (concurrent >= 2 && total >= SATURATED * capacity) {
      return perConnection(s) >= CEILING * highest;
    }
    return false;
  }

  private static double perConnection(TransferRecord t) {
    JournalLine l = t.journal();
    return t.bandwidth() / (l == null ? 1 : Math.max(1, l.connections()));
  }

  /** Whether two samples overlap by at least half of the shorter one's span. */
  static boolean overlapping(TransferRecord a, TransferRecord b) {
    long s = Math.max(a.start().toEpochMilli(), b.start().toEpochMilli());
    long e = Math.min(a.end().toEpochMilli(), b.end().toEpochMilli());
    if (e <= s) {
      return false;
    }
    long shorter = Math.min(a.duration().toMillis(), b.duration().toMillis());
    return 2 * (e - s) >= shorter;
  }

  static double median(double[] a) {
    double[] c = a.clone();
    Arrays.sort(c);
    int n = c.length;
    return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
  }
}
