package org.braid.coalloc;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits on a directory listing, whose answers come from servers that may be hostile or broken: a
 * listing that would exceed one fails with a message naming the limit, in bounded time and memory.
 *
 * @param maxResponseBytes the largest answer read for one directory, in bytes (default 64 MiB)
 * @param maxEntries the most entries (files and directories) of the whole tree (default 1,000,000)
 * @param maxDepth the deepest directory level below the root, the root being 0 (default 64)
 * @param timeout the most time the whole listing of one replica may take (default 10 min)
 */
public record ListLimits(long maxResponseBytes, int maxEntries, int maxDepth, Duration timeout) {

  /** The defaults. */
  public static final ListLimits DEFAULT =
      new ListLimits(64L << 20, 1_000_000, 64, Duration.ofMinutes(10));

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException if a limit is not positive (the depth may be 0: the root only)
   */
  public ListLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (maxResponseBytes <= 0 || maxEntries <= 0 || maxDepth < 0) {
      throw new IllegalArgumentException(
          "listing limits must be positive: "
              + maxResponseBytes
              + " bytes, "
              + maxEntries
              + " entries, depth "
              + maxDepth);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("listing timeout must be positive: " + timeout);
    }
  }

  /** These limits with another entry count. */
  public ListLimits withMaxEntries(int n) {
    return new ListLimits(maxResponseBytes, n, maxDepth, timeout);
  }
}
