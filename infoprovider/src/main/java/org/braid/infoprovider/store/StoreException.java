package org.braid.infoprovider.store;

import java.io.IOException;

/** The store could not be opened, read or written. Wraps the SQLite error. */
public final class StoreException extends IOException {

  /** Creates the exception with a message naming the database and the operation. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
