package org.braid.infoprovider;

import java.util.Locale;

/**
 * File-size classes of paper 003, section 3.3.3: 0-50 MB as 10M, 50-250 MB as 100M, 250-750 MB as
 * 500M, more than 750 MB as 1G (decimal megabytes). {@link #ALL} stands for every size.
 */
public enum SizeClass {
  /** Every size together. Never returned by {@link #of(long)}. */
  ALL("all", "", ""),
  /** Below 50 MB. */
  C10M("10M", "10M", "tenmbrange"),
  /** From 50 MB to below 250 MB. */
  C100M("100M", "100M", "hundredmbrange"),
  /** From 250 MB to below 750 MB. */
  C500M("500M", "500M", "fivehundredmbrange"),
  /** 750 MB and more. */
  C1G("1G", "1G", "onegbrange");

  private static final long MB = 1_000_000L;

  private final String label;
  private final String adSuffix;
  private final String ldifSuffix;

  SizeClass(String label, String adSuffix, String ldifSuffix) {
    this.label = label;
    this.adSuffix = adSuffix;
    this.ldifSuffix = ldifSuffix;
  }

  /** The class of a transfer of {@code bytes} bytes. */
  public static SizeClass of(long bytes) {
    if (bytes < 50 * MB) {
      return C10M;
    } else if (bytes < 250 * MB) {
      return C100M;
    } else if (bytes < 750 * MB) {
      return C500M;
    }
    return C1G;
  }

  /** The label used in JSON, metrics and URLs: "all", "10M", "100M", "500M" or "1G". */
  public String label() {
    return label;
  }

  /** The suffix of ClassAd attribute names, e.g. "10M" in AvgRDBandwidth10M; empty for ALL. */
  public String adSuffix() {
    return adSuffix;
  }

  /** The suffix of LDIF attribute names, e.g. "tenmbrange"; empty for ALL. */
  public String ldifSuffix() {
    return ldifSuffix;
  }

  /**
   * Parses a label ("all", "10M", "100M", "500M", "1G", any case).
   *
   * @throws IllegalArgumentException for anything else
   */
  public static SizeClass parse(String s) {
    for (SizeClass c : values()) {
      if (c.label.toLowerCase(Locale.ROOT).equals(s.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException("size class must be all, 10M, 100M, 500M or 1G: " + s);
  }
}
