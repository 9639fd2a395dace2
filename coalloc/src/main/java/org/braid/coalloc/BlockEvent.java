package org.braid.coalloc;

/**
 * One request of the download, for traces and timelines.
 *
 * @param replica index of the replica in {@link DownloadReport#replicas()}
 * @param connection connection number within the replica, from 0
 * @param offset first byte requested
 * @param endOffset one past the last byte received
 * @param written bytes of this request that went into the file (less than received when another
 *     replica delivered them first)
 * @param startNanos start, in nanoseconds since the download started
 * @param endNanos end, in nanoseconds since the download started
 * @param result {@code ok}, {@code lost race}, or {@code error: reason}
 * @param streams parallel TCP streams the request used (GridFTP MODE E), 1 for one connection
 * @param firstByteNanos when its first byte arrived, in nanoseconds since the download started; -1
 *     when none did or it is not known
 */
public record BlockEvent(
    int replica,
    int connection,
    long offset,
    long endOffset,
    long written,
    long startNanos,
    long endNanos,
    String result,
    int streams,
    long firstByteNanos) {

  /** An event whose first byte's time is not known. */
  public BlockEvent(
      int replica,
      int connection,
      long offset,
      long endOffset,
      long written,
      long startNanos,
      long endNanos,
      String result,
      int streams) {
    this(
        replica, connection, offset, endOffset, written, startNanos, endNanos, result, streams, -1);
  }

  /** An event of a request over one connection ({@code streams} 1). */
  public BlockEvent(
      int replica,
      int connection,
      long offset,
      long endOffset,
      long written,
      long startNanos,
      long endNanos,
      String result) {
    this(replica, connection, offset, endOffset, written, startNanos, endNanos, result, 1, -1);
  }
}
