package org.braid.coalloc;

import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One file of a dataset: where it goes and where it comes from.
 *
 * @param path the path relative to the output directory, checked by {@link DatasetNames#check}
 * @param size the size in bytes, or -1 when not known before the download (then it is probed)
 * @param sources the file's replicas, the preferred first (for a planned dataset: the replicas the
 *     plan gives a share, best first, then the others); at least one, no duplicates
 * @param checksums whole-file digests the file must match; may be empty
 * @param pieces piece digests, or null
 */
public record DatasetFile(
    String path, long size, List<URI> sources, List<Checksum> checksums, PieceHashes pieces) {

  /**
   * Checks and copies.
   *
   * @throws IllegalArgumentException if the path breaks the rules of {@link DatasetNames}, the size
   *     is below -1, or there is no source or a duplicate one
   */
  public DatasetFile {
    DatasetNames.check(Objects.requireNonNull(path, "path"));
    if (size < -1) {
      throw new IllegalArgumentException(path + ": size must be -1 (unknown) or more: " + size);
    }
    sources = List.copyOf(sources);
    if (sources.isEmpty()) {
      throw new IllegalArgumentException(path + ": no source");
    }
    if (hasDuplicate(sources)) {
      throw new IllegalArgumentException(path + ": a source is listed twice: " + sources);
    }
    checksums = List.copyOf(checksums);
  }

  /** Whether a source is listed twice: pairs for a few (no hash of each URI), a set for many. */
  private static boolean hasDuplicate(List<URI> sources) {
    int n = sources.size();
    if (n > 16) {
      return new HashSet<>(sources).size() != n;
    }
    for (int i = 1; i < n; i++) {
      for (int j = 0; j < i; j++) {
        if (same(sources.get(i), sources.get(j))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@link URI#equals}, told first by host and port where both have one: a file's replicas usually
   * differ there, and comparing whole URIs (path first) is a good part of a long list's cost.
   */
  private static boolean same(URI a, URI b) {
    String ha = a.getHost();
    String hb = b.getHost();
    if (ha != null && hb != null && (a.getPort() != b.getPort() || !ha.equalsIgnoreCase(hb))) {
      return false;
    }
    return a.equals(b);
  }

  /** A file without checksums or piece hashes. */
  public static DatasetFile of(String path, long size, List<URI> sources) {
    return new DatasetFile(path, size, sources, List.of(), null);
  }

  /** The same file with these sources (in this order). */
  public DatasetFile withSources(List<URI> s) {
    return new DatasetFile(path, size, s, checksums, pieces);
  }

  /** The same file with these checksums. */
  public DatasetFile withChecksums(List<Checksum> c) {
    return new DatasetFile(path, size, sources, c, pieces);
  }
}
