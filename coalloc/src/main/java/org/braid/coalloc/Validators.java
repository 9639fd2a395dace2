package org.braid.coalloc;

import java.util.Objects;

/**
 * What a replica says about its copy of the file: its size and, when the protocol has them, the
 * HTTP validators. Used to check that every response comes from the same version of the file.
 *
 * @param size the file size in bytes, at least 0
 * @param etag the entity tag, or null when the server sends none
 * @param lastModified the Last-Modified header value, or null
 */
public record Validators(long size, String etag, String lastModified) {
  /**
   * Checks the size.
   *
   * @throws IllegalArgumentException if size is negative
   */
  public Validators {
    if (size < 0) {
      throw new IllegalArgumentException("file size must not be negative: " + size);
    }
  }

  /**
   * Whether another answer of the same replica could come from the same version: same size, and
   * each validator equal where both sides have it.
   */
  public boolean sameVersion(Validators other) {
    return size == other.size
        && (etag == null || other.etag == null || Objects.equals(etag, other.etag))
        && (lastModified == null
            || other.lastModified == null
            || Objects.equals(lastModified, other.lastModified));
  }
}
