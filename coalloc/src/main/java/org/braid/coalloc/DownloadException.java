package org.braid.coalloc;

import java.io.IOException;

/**
 * A download could not be completed and verified: every replica failed, the replicas disagree, or
 * the checksum does not match. The output file is left untouched; the {@code .part} file and the
 * control file stay so that a later run can resume.
 */
public class DownloadException extends IOException {
  /** Creates the exception. */
  public DownloadException(String message) {
    super(message);
  }

  /** Creates the exception with a cause. */
  public DownloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
