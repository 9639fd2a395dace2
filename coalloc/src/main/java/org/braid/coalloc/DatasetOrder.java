package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch plan of a dataset that arrives while its job already runs ({@link
 * Dataset.Builder#planArriving}): the order to fetch the files in, and each server's predicted
 * rate. Files not named keep their place after the named ones.
 *
 * @param paths relative paths of the dataset's files, in the plan's order
 * @param rates predicted rates per server (one URL of each)
 */
public record DatasetOrder(List<String> paths, List<PredictedRate> rates) {
  /** Copies the lists. */
  public DatasetOrder {
    paths = List.copyOf(paths);
    rates = List.copyOf(rates);
  }

  /** The predicted rates by server key ({@link DatasetServer#key}), the largest per server. */
  Map<String, Double> ratesByServer() {
    Map<String, Double> m = new HashMap<>();
    for (PredictedRate r : rates) {
      m.merge(DatasetServer.key(r.uri(), "-"), r.bytesPerSecond(), Math::max);
    }
    return m;
  }

  /**
   * Puts the pending file indexes in this order; files it does not name go after, in their order.
   */
  void reorder(Deque<Integer> pending, List<DatasetFile> files) {
    Map<String, Integer> rank = new HashMap<>(paths.size() * 2);
    for (int i = 0; i < paths.size(); i++) {
      rank.putIfAbsent(paths.get(i), i);
    }
    List<Integer> p = new ArrayList<>(pending);
    p.sort(Comparator.comparingInt(i -> rank.getOrDefault(files.get(i).path(), Integer.MAX_VALUE)));
    pending.clear();
    pending.addAll(p);
  }
}
