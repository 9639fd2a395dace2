package org.braid.predictors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * File-size classes for context-sensitive filtering (paper 003 section 3.3.3): a sample is
 * predicted from the earlier samples of its own class only.
 *
 * <p>The default classes are the paper's: below 50 MB ({@code 10M}), 50 to 250 MB ({@code 100M}),
 * 250 to 750 MB ({@code 500M}) and above ({@code 1G}), with MB = 10^6 bytes. A class holds sizes
 * from its lower bound (inclusive) to the next bound (exclusive).
 *
 * @param bounds the lower bounds of the second and later classes, in bytes, strictly increasing
 * @param labels one label per class, {@code bounds.length + 1} of them
 */
public record SizeClasses(long[] bounds, List<String> labels) {

  /** The paper's four classes. */
  public static final SizeClasses PAPER =
      new SizeClasses(
          new long[] {50_000_000L, 250_000_000L, 750_000_000L},
          List.of("10M", "100M", "500M", "1G"));

  /**
   * Checks the classes.
   *
   * @throws IllegalArgumentException if the bounds are not positive and increasing, or the label
   *     count is not one more than the bound count
   */
  public SizeClasses {
    Objects.requireNonNull(bounds, "bounds");
    labels = List.copyOf(labels);
    bounds = bounds.clone();
    for (int i = 0; i < bounds.length; i++) {
      if (bounds[i] <= 0 || (i > 0 && bounds[i] <= bounds[i - 1])) {
        throw new IllegalArgumentException(
            "size class bounds must be positive and increasing: " + Arrays.toString(bounds));
      }
    }
    if (labels.size() != bounds.length + 1) {
      throw new IllegalArgumentException(
          "need " + (bounds.length + 1) + " size class labels, got " + labels.size());
    }
  }

  /**
   * Parses bounds written like {@code 50M,250M,750M} (suffixes K, M, G, T are powers of 1000) and
   * labels each class by its lower bound ({@code 0}, {@code 50M}, ...).
   *
   * @throws IllegalArgumentException naming the bound that does not parse
   */
  public static SizeClasses parse(String text) {
    Objects.requireNonNull(text, "text");
    String[] parts = text.split(",");
    long[] b = new long[parts.length];
    List<String> labels = new ArrayList<>();
    labels.add("0");
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].trim();
      b[i] = parseSize(p);
      labels.add(p);
    }
    return new SizeClasses(b, labels);
  }

  /**
   * Parses a byte count such as {@code 1500}, {@code 50M} or {@code 2G} (powers of 1000).
   *
   * @throws IllegalArgumentException if the text is not a non-negative size
   */
  public static long parseSize(String p) {
    String s = p.trim().toUpperCase(java.util.Locale.ROOT);
    long mult = 1;
    if (s.endsWith("B")) {
      s = s.substring(0, s.length() - 1);
    }
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'K' -> mult = 1_000L;
        case 'M' -> mult = 1_000_000L;
        case 'G' -> mult = 1_000_000_000L;
        case 'T' -> mult = 1_000_000_000_000L;
        default -> mult = 1;
      }
      if (mult != 1) {
        s = s.substring(0, s.length() - 1);
      }
    }
    try {
      double v = Double.parseDouble(s);
      if (!(v >= 0) || Double.isInfinite(v) || v * mult > Long.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return (long) (v * mult);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size in bytes: '" + p + "'", e);
    }
  }

  /** The number of classes. */
  public int count() {
    return bounds.length + 1;
  }

  /** The class index of a size; unknown sizes (negative) fall in the first class. */
  public int classOf(long size) {
    int c = 0;
    while (c < bounds.length && size >= bounds[c]) {
      c++;
    }
    return c;
  }

  /** The label of the class that holds the size. */
  public String labelOf(long size) {
    return labels.get(classOf(size));
  }

  @Override
  public long[] bounds() {
    return bounds.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SizeClasses other
        && Arrays.equals(bounds, other.bounds)
        && labels.equals(other.labels);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds) * 31 + labels.hashCode();
  }

  @Override
  public String toString() {
    return "SizeClasses" + labels;
  }
}
