package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.fail;

/** Reads samples out of the Prometheus text format in tests. */
public final class MetricsText {

  private MetricsText() {}

  /**
   * The value of the sample written exactly as {@code series} (name and labels, labels in the
   * client's order: sorted by name), failing the test when there is none.
   */
  public static double value(String text, String series) {
    for (String line : text.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return fail("no sample " + series + " in:\n" + text);
  }
}
