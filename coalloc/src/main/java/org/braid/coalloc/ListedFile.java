package org.braid.coalloc;

import java.util.Objects;

/**
 * One file found by a {@link Lister}.
 *
 * @param path the path relative to the listed directory, segments separated by {@code /}, checked
 *     by {@link DatasetNames#check}
 * @param size the size in bytes, or -1 when the listing does not say
 */
public record ListedFile(String path, long size) {
  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if the path breaks the rules of {@link DatasetNames} or the
   *     size is below -1
   */
  public ListedFile {
    DatasetNames.check(Objects.requireNonNull(path, "path"));
    if (size < -1) {
      throw new IllegalArgumentException("file size must be -1 (unknown) or more: " + size);
    }
  }
}
