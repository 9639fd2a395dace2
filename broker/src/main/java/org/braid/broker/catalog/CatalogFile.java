package org.braid.broker.catalog;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One logical file of a catalog and its replicas.
 *
 * @param name the file name (relative, never absolute or with {@code ..})
 * @param size the size in bytes, or -1 when the catalog does not say
 * @param hashes whole-file digests by lower-case algorithm name as the catalog spells it ({@code
 *     sha-256}, {@code md5}, ...), hex in lower case
 * @param pieces piece hashes, or null when the catalog has none
 * @param replicas the replicas, sorted by priority (stable: catalog order among equals)
 */
public record CatalogFile(
    String name, long size, Map<String, String> hashes, Pieces pieces, List<Replica> replicas) {

  /**
   * Copies the collections.
   *
   * @throws NullPointerException if name, hashes or replicas is null
   * @throws IllegalArgumentException if size is below -1
   */
  public CatalogFile {
    Objects.requireNonNull(name, "name");
    if (size < -1) {
      throw new IllegalArgumentException("file size must be -1 or more: " + size);
    }
    hashes = Map.copyOf(hashes);
    replicas = List.copyOf(replicas);
  }

  /**
   * Piece hashes: the file cut into pieces of {@code length} bytes (the last may be shorter), one
   * digest per piece.
   *
   * @param type digest algorithm ({@code sha-1}, {@code sha-256}, ...)
   * @param length piece length in bytes, positive
   * @param hashes one hex digest per piece, in order
   */
  public record Pieces(String type, long length, List<String> hashes) {
    /** Copies the list. */
    public Pieces {
      Objects.requireNonNull(type, "type");
      if (length <= 0) {
        throw new IllegalArgumentException("piece length must be positive: " + length);
      }
      hashes = List.copyOf(hashes);
    }
  }
}
