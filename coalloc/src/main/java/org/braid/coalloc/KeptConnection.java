package org.braid.coalloc;

/**
 * A range answer read over a kept-alive connection ({@link HttpRangeSource}): what happens to the
 * connection when the answer ends early or is replaced. Both calls come from the reading thread.
 */
interface KeptConnection {
  /** The connection is closed once this answer ends or is closed, however little is left. */
  void dropConnection();

  /**
   * On close, up to {@code bytes} unread bytes of the answer are read and dropped so that the
   * connection is kept (a new one costs a connect, a request and TCP's start again); more than that
   * and it is closed. Default: 64 KiB.
   */
  void drainUpTo(long bytes);

  /** Once closed: whether the connection was kept for the next request (not closed). */
  boolean connectionKept();
}
