package org.braid.infoprovider.stats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord;

/**
 * Collects transfers and computes {@link TransferStats} per (volume, peer, operation, size
 * class), plus the same over all sizes ({@link SizeClass#ALL}). Memory: one double per successful
 * transfer (the median needs them all). Not thread-safe.
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
    List<TransferStats> out = new ArrayList<>();
    for (Map.Entry<StatsKey, Group> e : groups.entrySet()) {
      TransferStats s = e.getValue().stats(e.getKey());
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** Failed transfers per key, including groups with no successful transfer. */
  public long failed(StatsKey key) {
    Group g = groups.get(key);
    return g == null ? 0 : g.failed;
  }

  private static final class Group {
    private double[] bw = new double[8];
    private int n;
    private long failed;
    private long bytes;
    private double lastBw;
    private Instant lastTime;

    void add(TransferRecord r) {
      if (!r.succeeded()) {
        failed++;
        return;
      }
      double b = r.bandwidth();
      if (n == bw.length) {
        bw = Arrays.copyOf(bw, n * 2);
      }
      bw[n++] = b;
      bytes += r.size();
      if (lastTime == null || !r.end().isBefore(lastTime)) {
        lastTime = r.end();
        lastBw = b;
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
          key, n, failed, bytes, v[0], v[n - 1], mean, sd, median, lastBw, lastTime);
    }
  }
}
