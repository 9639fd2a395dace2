package org.braid.broker.catalog;

/**
 * Limits on untrusted catalog input.
 *
 * @param maxBytes the largest catalog file read, in bytes (default 16 MiB)
 * @param maxFiles the most files in one catalog (default 100,000)
 * @param maxUrlsPerFile the most URLs of one file (default 10,000)
 * @param maxPieces the most piece hashes of one file (default 1,000,000)
 */
public record CatalogLimits(long maxBytes, int maxFiles, int maxUrlsPerFile, int maxPieces) {

  /** The defaults. */
  public static final CatalogLimits DEFAULT =
      new CatalogLimits(16L << 20, 100_000, 10_000, 1_000_000);

  /**
   * Checks the limits.
   *
   * @throws IllegalArgumentException if a limit is not positive
   */
  public CatalogLimits {
    if (maxBytes <= 0 || maxFiles <= 0 || maxUrlsPerFile <= 0 || maxPieces <= 0) {
      throw new IllegalArgumentException(
          "catalog limits must be positive: "
              + maxBytes
              + ", "
              + maxFiles
              + ", "
              + maxUrlsPerFile
              + ", "
              + maxPieces);
    }
  }
}
