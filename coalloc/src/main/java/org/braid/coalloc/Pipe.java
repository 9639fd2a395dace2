package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;

/**
 * One connection to a replica on which range requests are sent ahead of their answers, which come
 * back in the order sent (HTTP/1.1 pipelining): a block boundary then costs no round trip and the
 * connection never idles. Used by one fetch loop; {@link #close} may come from any thread and makes
 * a blocked read fail.
 */
interface Pipe extends Closeable {
  /** Sends the request for {@code [offset, offset + length)}, {@code length > 0}. */
  void send(long offset, long length) throws IOException;

  /**
   * The answer to the oldest request not answered yet: a channel of exactly its bytes, checked as
   * {@link RangeSource#open} checks them. The answer before must have been read to its end.
   *
   * @throws IllegalStateException if no request is waiting or the answer before is not read
   */
  ReadableByteChannel next() throws IOException;

  /** How long opening the connection took (about one round trip), nanoseconds; -1 if unknown. */
  default long connectNanos() {
    return -1;
  }

  /** Opens pipes to one replica. */
  @FunctionalInterface
  interface Opener {
    Pipe open() throws IOException;
  }

  /**
   * How to open pipes to the source: HTTP pipelining ({@link HttpRangeSource#pipelinable}), or for
   * local files each answer read when its turn comes; null for the others (https, GridFTP, XRootD),
   * which are read one range at a time.
   */
  static Opener opener(RangeSource src) {
    if (src instanceof HttpRangeSource h) {
      return h.pipelinable() ? h::pipe : null;
    }
    if (src instanceof FileRangeSource) {
      return () -> new Queued(src);
    }
    return null;
  }

  /** Requests queued and each opened with {@link RangeSource#open} when its answer is read. */
  final class Queued implements Pipe {
    private final RangeSource src;
    private final ArrayDeque<long[]> sent = new ArrayDeque<>();
    private ReadableByteChannel current;

    Queued(RangeSource src) {
      this.src = src;
    }

    @Override
    public void send(long offset, long length) {
      sent.add(new long[] {offset, length});
    }

    @Override
    public synchronized ReadableByteChannel next() throws IOException {
      long[] r = sent.poll();
      if (r == null) {
        throw new IllegalStateException("no request waiting for its answer");
      }
      if (current != null) {
        current.close();
      }
      current = src.open(r[0], r[1]);
      return current;
    }

    @Override
    public synchronized void close() throws IOException {
      if (current != null) {
        current.close();
      }
    }
  }
}
