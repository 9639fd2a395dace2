package org.braid.predictors;

/**
 * How paper 003 (section 3.2.2) fills the probe-only tuples: network or disk samples taken between
 * two transfers, which have no transfer value of their own.
 */
public enum Fill {
  /** Drop the probe-only tuples. */
  NOFILL("NoFill"),
  /** Use the last transfer value before the probe. */
  LV("LV"),
  /** Use the mean of the transfer values of the day before the probe (the last value if none). */
  AVG("Avg");

  private final String label;

  Fill(String label) {
    this.label = label;
  }

  /** The paper's label: NoFill, LV or Avg. */
  public String label() {
    return label;
  }
}
