package org.braid.broker.catalog;

import java.io.IOException;

/**
 * A catalog that cannot be read or is malformed; the message names the source and, where known, the
 * line and the problem.
 */
public final class CatalogException extends IOException {
  private static final long serialVersionUID = 1L;

  /** An error with a message that names the source and the problem. */
  public CatalogException(String message) {
    super(message);
  }

  /** An error with a message and its cause. */
  public CatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
