package org.braid.provider;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.store.Store;
import org.braid.predictors.Forecaster;
import org.braid.predictors.Series;

/**
 * The probe series of the store as the statistics use them: the latest point of each series, and
 * the forecasts' regression inputs (the network series per peer, the disk series of the first
 * configured device).
 *
 * @param last the latest point of each series, by name
 * @param inputs what forecasts are made with
 */
record ProbeSeries(Map<String, Point> last, ForecastInputs inputs) {

  private static final String NETWORK = "network/";
  private static final String BANDWIDTH = "/bandwidth";

  /**
   * Reads the store's series.
   *
   * @param diskSeries the name of the disk utilisation series used in forecasts, or null for none
   * @throws IOException if the store cannot be read
   */
  static ProbeSeries read(Store store, Forecaster forecaster, String diskSeries, Instant now)
      throws IOException {
    Map<String, Series> network = new HashMap<>();
    Map<String, Point> last = new LinkedHashMap<>();
    Series disk = Series.empty("disk");
    for (String name : store.seriesNames()) {
      List<Point> pts = store.series(name);
      if (pts.isEmpty()) {
        continue;
      }
      last.put(name, pts.get(pts.size() - 1));
      if (name.startsWith(NETWORK) && name.endsWith(BANDWIDTH)) {
        network.put(
            name.substring(NETWORK.length(), name.length() - BANDWIDTH.length()),
            toSeries(name, pts));
      } else if (name.equals(diskSeries)) {
        disk = toSeries(name, pts);
      }
    }
    return new ProbeSeries(
        last,
        new ForecastInputs(forecaster, network, disk, now, ForecastInputs.DEFAULT_MAX_HISTORY));
  }

  private static Series toSeries(String name, List<Point> pts) {
    Series.Builder b = Series.builder(name);
    for (Point p : pts) {
      b.add(p.time(), p.value());
    }
    return b.build();
  }
}
