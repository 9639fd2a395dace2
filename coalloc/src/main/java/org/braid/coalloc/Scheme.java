package org.braid.coalloc;

import java.util.Locale;

/**
 * How a download divides the file among replicas: the co-allocation schemes of paper 003
 * (Vazhkudai, section 4.3) and Braid's default, {@link #adaptive()}. Obtain one from the static
 * factories; instances are immutable descriptions (the per-download state lives elsewhere).
 */
public sealed interface Scheme permits BlockPolicy.Spec {

  /** The scheme's name as {@code --scheme} accepts it. */
  String name();

  /** The block count k for conservative and aggressive balancing, or 0 when not used. */
  int blocks();

  /** The whole file from the replica with the highest predicted rate (the first one if none). */
  static Scheme singleBest() {
    return new BlockPolicy.Spec("single", 0);
  }

  /** Brute force (4.3.1): each of the n flows fetches S/n bytes. */
  static Scheme bruteForce() {
    return new BlockPolicy.Spec("brute", 0);
  }

  /**
   * History-based (4.3.2): flow i fetches s_i = B_i / A * S, where B_i is its predicted rate and A
   * the sum of all. Needs a {@link PredictedRate} for every replica.
   */
  static Scheme historyBased() {
    return new BlockPolicy.Spec("history", 0);
  }

  /**
   * Conservative load balancing (4.3.3): k equal blocks; a flow gets the next block when it
   * delivers one.
   *
   * @throws IllegalArgumentException if k is not positive
   */
  static Scheme conservative(int k) {
    return new BlockPolicy.Spec("conservative", positive(k));
  }

  /**
   * Aggressive load balancing (4.3.3): block unit S/k; a flow that delivers a block faster than the
   * running maximum rate doubles its block size and resets the maximum, a slower one goes back to
   * one unit, one slower than a quarter of the maximum is no longer used.
   *
   * @throws IllegalArgumentException if k is not positive
   */
  static Scheme aggressive(int k) {
    return new BlockPolicy.Spec("aggressive", positive(k));
  }

  /**
   * Braid's default: aggressive balancing seeded from predicted rates that never waits on a slow
   * replica at the end. Block sizes follow each flow's share of the remaining time; an idle flow
   * splits the unfinished block that would finish last, and fetches a small remainder from its own
   * replica too, keeping whichever bytes arrive first.
   */
  static Scheme adaptive() {
    return new BlockPolicy.Spec("adaptive", 0);
  }

  /**
   * Parses a scheme name ({@code single}, {@code brute}, {@code history}, {@code conservative},
   * {@code aggressive}, {@code adaptive}); {@code blocks} is k for the balancing schemes.
   *
   * @throws IllegalArgumentException for an unknown name or a bad block count
   */
  static Scheme parse(String name, int blocks) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "single":
        return singleBest();
      case "brute":
      case "brute-force":
        return bruteForce();
      case "history":
      case "history-based":
        return historyBased();
      case "conservative":
        return conservative(blocks);
      case "aggressive":
        return aggressive(blocks);
      case "adaptive":
      case "default":
        return adaptive();
      default:
        throw new IllegalArgumentException(
            "unknown scheme '"
                + name
                + "' (use single, brute, history, conservative, aggressive or adaptive)");
    }
  }

  private static int positive(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("block count must be positive: " + k);
    }
    return k;
  }
}
