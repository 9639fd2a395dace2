package org.braid.coalloc;

import java.io.IOException;
import java.util.Objects;

/**
 * A download could not be completed and verified: every replica failed, the replicas disagree, the
 * checksum does not match, the output cannot be written. {@link #kind()} says which, so a caller
 * can tell the user what to do (exit codes, retries). The output file is left untouched; the {@code
 * .part} file and the control file stay so that a later run can resume, unless the data is known to
 * be bad.
 */
public class DownloadException extends IOException {
  /** What kind of failure ended the download. */
  public enum Kind {
    /** No replica could deliver the file: unreachable, refused, erroring, too slow, disagreeing. */
    NETWORK,
    /**
     * The data is not what was expected: a whole-file checksum, piece hashes, or the declared size
     * do not match.
     */
    VERIFICATION,
    /** The output cannot be written: no space left, no permission, an I/O error of the disk. */
    DISK,
    /**
     * The output was refused before anything was fetched: a directory, a device or another file
     * that is not a regular file, a missing directory.
     */
    OUTPUT,
    /** {@link Download#cancel()} stopped it. */
    CANCELLED
  }

  private final Kind kind;

  /** Creates the exception for a failure of the replicas ({@link Kind#NETWORK}). */
  public DownloadException(String message) {
    this(message, null, Kind.NETWORK);
  }

  /** Creates the exception with a cause, for a failure of the replicas. */
  public DownloadException(String message, Throwable cause) {
    this(message, cause, Kind.NETWORK);
  }

  /**
   * Creates the exception.
   *
   * @throws NullPointerException if kind is null
   */
  public DownloadException(String message, Throwable cause, Kind kind) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** What kind of failure this is. */
  public Kind kind() {
    return kind;
  }
}
