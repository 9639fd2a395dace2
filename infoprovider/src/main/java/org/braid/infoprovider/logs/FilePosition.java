package org.braid.infoprovider.logs;

import java.util.Objects;

/**
 * How far one log file has been read.
 *
 * <p>A file is identified by its content fingerprint (a hash of its first line) rather than by its
 * inode alone: copytruncate and gzip give the same content a new inode, and inodes are reused. The
 * inode ({@code fileKey}) is kept for reports.
 *
 * @param source the configured log path the file belongs to (the live file or a rotated one)
 * @param fingerprint hash of the file's first line
 * @param fileKey the file system identity (inode) when last read, or "" if unknown
 * @param offset bytes read (of the decompressed content for a gzip file)
 * @param lines lines read
 * @param complete whether the file is finished (a gzip file read to its end)
 */
public record FilePosition(
    String source, String fingerprint, String fileKey, long offset, long lines, boolean complete) {

  /**
   * Checks the position.
   *
   * @throws NullPointerException if a text part is null
   * @throws IllegalArgumentException if offset or lines is negative
   */
  public FilePosition {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(fileKey, "fileKey");
    if (offset < 0 || lines < 0) {
      throw new IllegalArgumentException(
          "offset and lines must not be negative: " + offset + ", " + lines);
    }
  }
}
