package org.braid.coalloc;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * The data of a first request (the probe folded into it), read into memory as it arrives while the
 * download has not started yet, and handed to the fetcher from there: a replica's first bytes come
 * at the pace of the network from the moment its answer arrives, rather than filling the socket's
 * receive buffer and stalling the sender (whose congestion window would then start over) until the
 * other replicas have answered. Holds at most {@code length} bytes ({@link Engine#FIRST_REQUEST}).
 * One thread fills ({@link #fill}), one reads; thread-safe between the two.
 */
final class FirstData implements ReadableByteChannel {
  private static final int CHUNK = 64 * 1024;

  private final ReadableByteChannel in;
  private final byte[] buf;
  private int filled;
  private int taken;
  private boolean done;
  private boolean closed;
  private IOException failure;

  /** The first {@code length} bytes of {@code in}, which delivers exactly that many. */
  FirstData(ReadableByteChannel in, int length) {
    this.in = in;
    this.buf = new byte[length];
  }

  /** Reads the whole of {@code in} into memory; returns when done, failed or closed. */
  void fill() {
    try {
      while (true) {
        int at;
        synchronized (this) {
          if (closed || filled == buf.length) {
            break;
          }
          at = filled;
        }
        int n = in.read(ByteBuffer.wrap(buf, at, Math.min(CHUNK, buf.length - at)));
        synchronized (this) {
          if (n < 0) {
            break;
          }
          filled += n;
          notifyAll();
        }
      }
    } catch (IOException e) {
      synchronized (this) {
        failure = e;
      }
    } finally {
      synchronized (this) {
        done = true;
        notifyAll();
      }
    }
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    while (taken == filled && !done && !closed) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading the first answer");
      }
    }
    if (closed) {
      throw new IOException("closed");
    }
    if (taken < filled) {
      int n = Math.min(dst.remaining(), filled - taken);
      dst.put(buf, taken, n);
      taken += n;
      return n;
    }
    if (failure != null) {
      throw failure;
    }
    return -1;
  }

  @Override
  public synchronized boolean isOpen() {
    return !closed;
  }

  /**
   * Abandons what is not read yet: the request is ended (its connection closed if bytes are left),
   * which also stops a filler blocked in a read.
   */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      notifyAll();
    }
    in.close();
  }
}
