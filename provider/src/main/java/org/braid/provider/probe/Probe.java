package org.braid.provider.probe;

import java.io.IOException;
import java.util.Map;
import org.braid.infoprovider.store.Point;

/** One kind of measurement, taken once per call; the scheduler calls it on its schedule. */
public interface Probe {

  /** A short name for logs, e.g. "network 10.0.0.1". */
  String name();

  /**
   * Takes one measurement.
   *
   * @return new points per series name (empty when there is nothing new, e.g. the first disk
   *     reading, which only sets the baseline)
   * @throws IOException if the measurement failed; the scheduler logs it and tries next time
   */
  Map<String, Point> measure() throws IOException;
}
