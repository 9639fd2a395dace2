package org.braid.matchmaking;

/**
 * Options for parsing ClassAd text.
 *
 * @param strict true for HTCondor's language exactly; false enables the paper-notation extension:
 *     numeric suffixes ({@code 5M}, {@code 50G}, {@code 2Gi}) with an optional {@code /s} or {@code
 *     /sec}, and old-syntax lines ending in {@code ;}. Default: true.
 * @param maxDepth deepest nesting of parentheses, operators, lists and ads accepted. Default: 1000.
 * @param maxLength longest input accepted, in characters; longer input is a parse error "input
 *     exceeds the limit of N characters". {@link BoundedLineReader} and {@link ClassAds#readText}
 *     read input so that it is never held whole beyond this. Default: 1,048,576.
 */
public record ParseOptions(boolean strict, int maxDepth, int maxLength) {

  /** HTCondor's language with the default limits. */
  public static final ParseOptions DEFAULT = new ParseOptions(true, 1000, 1 << 20);

  /** The paper-notation extension with the default limits. */
  public static final ParseOptions PAPER = new ParseOptions(false, 1000, 1 << 20);

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException if a limit is not positive
   */
  public ParseOptions {
    if (maxDepth <= 0) {
      throw new IllegalArgumentException("maxDepth must be positive: " + maxDepth);
    }
    if (maxLength <= 0) {
      throw new IllegalArgumentException("maxLength must be positive: " + maxLength);
    }
  }

  /** These options with strict mode set as given. */
  public ParseOptions withStrict(boolean s) {
    return new ParseOptions(s, maxDepth, maxLength);
  }

  /** These options with the nesting limit set as given. */
  public ParseOptions withMaxDepth(int d) {
    return new ParseOptions(strict, d, maxLength);
  }

  /** These options with the length limit set as given. */
  public ParseOptions withMaxLength(int n) {
    return new ParseOptions(strict, maxDepth, n);
  }
}
