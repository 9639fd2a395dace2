package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;

/**
 * The body of one range answer, whatever the protocol: exactly {@code length} bytes from a stream,
 * or a {@link SourceException} that says what went wrong after how many bytes. Protocols say how
 * their stream ends ({@link #complete}) and how they close ({@link #close}).
 */
abstract class ExactBody implements ReadableByteChannel {
  final URI uri;
  final InputStream in;
  final long length;
  private final Duration stallTimeout;

  /** What the failures call the stream and its connection: "body" and "connection" (HTTP). */
  private final String stream;

  private final String connection;
  long read;
  private byte[] buf;

  ExactBody(
      URI uri,
      InputStream in,
      long length,
      Duration stallTimeout,
      String stream,
      String connection) {
    this.uri = uri;
    this.in = in;
    this.length = length;
    this.stallTimeout = stallTimeout;
    this.stream = stream;
    this.connection = connection;
  }

  /**
   * Called once all {@code length} bytes are read: checks that the stream ends there (a longer
   * answer is a protocol violation) and finishes the protocol's exchange.
   */
  abstract void complete() throws IOException;

  /** The failure for a stream that broke after {@link #read} bytes (not a stall, not an EOF). */
  SourceException broken(IOException e) {
    return new SourceException.ConnectionException(
        uri,
        connection
            + " failed after "
            + read
            + " of "
            + length
            + " bytes: "
            + HttpRangeSource.describe(e),
        e);
  }

  /**
   * The failure for a body that received nothing for the stall timeout after {@code read} bytes.
   */
  static SourceException stalled(
      URI uri, Duration stallTimeout, long read, long length, SocketTimeoutException e) {
    return new SourceException.StalledException(
        uri,
        "stalled: no data for "
            + stallTimeout.toSeconds()
            + " s after "
            + read
            + " of "
            + length
            + " bytes",
        e);
  }

  /** The failure for a stream that ended after {@link #read} bytes. */
  final SourceException ended(IOException cause) {
    return new SourceException.BodyLengthException(
        uri, stream + " ended after " + read + " of " + length + " bytes", cause);
  }

  /** Fails if the stream has a byte after the requested range. */
  final void expectEnd() throws IOException {
    if (in.read() != -1) {
      throw new SourceException.BodyLengthException(
          uri, "server sent more than the " + length + " requested bytes", true);
    }
  }

  @Override
  public final int read(ByteBuffer dst) throws IOException {
    if (read >= length) {
      return -1;
    }
    int want = (int) Math.min(dst.remaining(), length - read);
    // a heap buffer is read into directly: one copy of every byte less (issue 17)
    boolean inPlace = dst.hasArray() && !dst.isReadOnly();
    byte[] into;
    int off;
    if (inPlace) {
      into = dst.array();
      off = dst.arrayOffset() + dst.position();
    } else {
      if (buf == null || buf.length < want) {
        buf = new byte[Math.max(want, 8192)];
      }
      into = buf;
      off = 0;
    }
    int n;
    try {
      n = in.read(into, off, want);
    } catch (SocketTimeoutException e) {
      throw stalled(uri, stallTimeout, read, length, e);
    } catch (IOException e) {
      throw broken(e);
    }
    if (n < 0) {
      throw ended(null);
    }
    if (inPlace) {
      dst.position(dst.position() + n);
    } else {
      dst.put(buf, 0, n);
    }
    read += n;
    if (read == length) {
      complete();
    }
    return n;
  }
}
