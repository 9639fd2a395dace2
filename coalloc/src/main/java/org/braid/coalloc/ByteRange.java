package org.braid.coalloc;

/**
 * The half-open byte range {@code [start, end)} of the file.
 *
 * @param start first byte
 * @param end one past the last byte, at least {@code start}
 */
record ByteRange(long start, long end) {
  ByteRange {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("not a byte range: " + start + "-" + end);
    }
  }

  long length() {
    return end - start;
  }
}
