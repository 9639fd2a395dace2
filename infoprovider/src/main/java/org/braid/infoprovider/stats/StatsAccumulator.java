package org.braid.infoprovider.stats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord;
import org.braid.predictors.Forecast;
import org.braid.predictors.ProbeSeries;
import org.braid.predictors.Series;

/**
 * Collects transfers and computes {@link TransferStats} per (volume, peer, operation, size class),
 * plus the same over all sizes ({@link SizeClass#ALL}). Memory: 24 bytes per successful transfer
 * (bandwidth, end time, size: the median and the forecasts need them). Not thread-safe.
 */
public final class StatsAccumulator {

  private final Map<StatsKey, Group> groups = new TreeMap<>();

  /** Adds one transfer to its size class and to the all-sizes group. */
  public void add(TransferRecord r) {
    StatsKey key = new StatsKey(r.volume(), r.peer(), r.operation(), r.sizeClass());
    groups.computeIfAbsent(key, k -> new Group()).add(r);
    groups.computeIfAbsent(key.allSizes(), k -> new Group()).add(r);
  }

  /** Statistics of every group with at least one successful transfer, sorted by key. */
  public List<TransferStats> result() {
    return result(null);
  }

  /**
   * Statistics with forecasts. The forecasts of a (volume, peer, operation) come from one replay of
   * its whole bandwidth series (end time, bandwidth, size; the most recent {@code maxHistory}
   * transfers), with the peer's network series and the disk series when they exist: the group over
   * all sizes is forecast for a transfer of the size of its last one, each size class's group for a
   * transfer of the size of that class's last one, so a class forecast sees the load that the
   * latest transfers of other sizes met. The error is scored over the class's own transfers.
   *
   * @param inputs what forecasts are made with, or null for none
   */
  public List<TransferStats> result(ForecastInputs inputs) {
    Map<StatsKey, Forecast> forecasts = inputs == null ? Map.of() : forecasts(inputs);
    List<TransferStats> out = new ArrayList<>();
    for (Map.Entry<StatsKey, Group> e : groups.entrySet()) {
      TransferStats s = e.getValue().stats(e.getKey());
      if (s == null) {
        continue;
      }
      if (inputs != null) {
        s = s.withForecast(forecasts.get(e.getKey()));
      }
      out.add(s);
    }
    return out;
  }

  private Map<StatsKey, Forecast> forecasts(ForecastInputs in) {
    Map<StatsKey, List<StatsKey>> byAll = new TreeMap<>();
    for (Map.Entry<StatsKey, Group> e : groups.entrySet()) {
      if (e.getValue().n > 0) {
        byAll.computeIfAbsent(e.getKey().allSizes(), k -> new ArrayList<>()).add(e.getKey());
      }
    }
    Map<StatsKey, Forecast> out = new HashMap<>();
    for (Map.Entry<StatsKey, List<StatsKey>> e : byAll.entrySet()) {
      StatsKey all = e.getKey();
      List<Long> sizes = new ArrayList<>();
      for (StatsKey k : e.getValue()) {
        sizes.add(groups.get(k).lastSize);
      }
      Series network = in.network().get(all.peer());
      ProbeSeries probes =
          new ProbeSeries(network == null ? Series.empty("network") : network, in.disk());
      List<Forecast> fs =
          in.forecaster()
              .forecast(groups.get(all).series(all, in.maxHistory()), probes, sizes, in.at());
      for (int i = 0; i < fs.size(); i++) {
        out.put(e.getValue().get(i), fs.get(i));
      }
    }
    return out;
  }

  private static final class Group {
    private double[] bw = new double[8];
    private long[] endMillis = new long[8];
    private long[] sizes = new long[8];
    private int n;
    private long failed;
    private long bytes;
    private double lastBw;
    private Instant lastTime;
    private long lastSize;

    void add(TransferRecord r) {
      if (!r.succeeded()) {
        failed++;
        return;
      }
      double b = r.bandwidth();
      if (n == bw.length) {
        bw = Arrays.copyOf(bw, n * 2);
        endMillis = Arrays.copyOf(endMillis, n * 2);
        sizes = Arrays.copyOf(sizes, n * 2);
      }
      bw[n] = b;
      endMillis[n] = r.end().toEpochMilli();
      sizes[n] = r.size();
      n++;
      bytes += r.size();
      if (lastTime == null || !r.end().isBefore(lastTime)) {
        lastTime = r.end();
        lastBw = b;
        lastSize = r.size();
      }
    }

    TransferStats stats(StatsKey key) {
      if (n == 0) {
        return null;
      }
      double[] v = Arrays.copyOf(bw, n);
      Arrays.sort(v);
      double sum = 0;
      for (double x : v) {
        sum += x;
      }
      double mean = sum / n;
      double sq = 0;
      for (double x : v) {
        sq += (x - mean) * (x - mean);
      }
      double sd = n > 1 ? Math.sqrt(sq / (n - 1)) : 0;
      double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
      return new TransferStats(
          key, n, failed, bytes, v[0], v[n - 1], mean, sd, median, lastBw, lastTime, null);
    }

    /** The most recent {@code maxHistory} transfers in end-time order. */
    Series series(StatsKey key, int maxHistory) {
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(endMillis[a], endMillis[b]));
      int from = Math.max(0, n - maxHistory);
      Series.Builder sb = Series.builder(key.peer() + "/" + key.operation().label());
      for (int k = from; k < n; k++) {
        int i = order[k];
        sb.add(Instant.ofEpochMilli(endMillis[i]), bw[i], sizes[i]);
      }
      return sb.build();
    }
  }
}
