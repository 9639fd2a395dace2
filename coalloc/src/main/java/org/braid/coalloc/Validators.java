package org.braid.coalloc;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a replica says about its copy of the file: its size, the HTTP validators when the protocol
 * has them, whether it serves byte ranges, and the whole-file checksums it publishes. Used to check
 * that every response comes from the same version of the file, and that replicas hold the same
 * version (see {@link RangeSource#probe}).
 *
 * @param size the file size in bytes, at least 0
 * @param etag the entity tag, or null when the server sends none
 * @param lastModified the Last-Modified header value, or null
 * @param ranges whether the replica serves byte ranges; false for a server that ignores {@code
 *     Range} and can only send the whole file from its first byte (used as one whole-file flow)
 * @param checksums whole-file checksums the replica publishes (HTTP {@code Digest} or {@code
 *     Repr-Digest}, GridFTP {@code CKSM}, an XRootD checksum query), at most one per algorithm;
 *     empty when it publishes none
 */
public record Validators(
    long size, String etag, String lastModified, boolean ranges, List<Checksum> checksums) {
  /**
   * Checks the size and copies the checksums.
   *
   * @throws IllegalArgumentException if size is negative or two checksums share an algorithm
   */
  public Validators {
    if (size < 0) {
      throw new IllegalArgumentException("file size must not be negative: " + size);
    }
    checksums = List.copyOf(Objects.requireNonNull(checksums, "checksums"));
    Set<String> seen = new HashSet<>();
    for (Checksum c : checksums) {
      if (!seen.add(c.algorithm())) {
        throw new IllegalArgumentException("two " + c.algorithm() + " checksums: " + checksums);
      }
    }
  }

  /** A replica that serves ranges and publishes no checksum. */
  public Validators(long size, String etag, String lastModified) {
    this(size, etag, lastModified, true, List.of());
  }

  /** The same answer with these published checksums. */
  public Validators withChecksums(List<Checksum> published) {
    return new Validators(size, etag, lastModified, ranges, published);
  }

  /** The published checksum by the (normalised) algorithm, or null. */
  public Checksum checksum(String algorithm) {
    for (Checksum c : checksums) {
      if (c.algorithm().equals(algorithm)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Whether another answer of the same replica could come from the same version: same size, each
   * validator equal where both sides have it, and each checksum equal where both publish one of the
   * same algorithm.
   */
  public boolean sameVersion(Validators other) {
    if (size != other.size
        || !(etag == null || other.etag == null || Objects.equals(etag, other.etag))
        || !(lastModified == null
            || other.lastModified == null
            || Objects.equals(lastModified, other.lastModified))) {
      return false;
    }
    for (Checksum c : checksums) {
      Checksum o = other.checksum(c.algorithm());
      if (o != null && !o.equals(c)) {
        return false;
      }
    }
    return true;
  }
}
