package org.braid.coalloc;

import java.util.List;

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
}
