package org.braid.provider.publish;

import java.io.IOException;
import java.util.List;
import org.braid.infoprovider.store.Point;

/** Where /v1/series reads probe series from (the store). */
public interface SeriesSource {

  /** The names of the series, sorted. */
  List<String> names() throws IOException;

  /** The points of a series, oldest first; empty if unknown. */
  List<Point> points(String name) throws IOException;
}
