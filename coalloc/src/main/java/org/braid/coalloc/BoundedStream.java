package org.braid.coalloc;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * An input stream that fails once more than a limit of bytes was read from it, or once a deadline
 * has passed: a server's answer is read in bounded memory and time whatever it sends (a read may
 * still block for the socket's own timeout past the deadline).
 */
final class BoundedStream extends FilterInputStream {
  private final long limit;
  private final URI uri;
  private final String what;
  private final Ticker ticker;
  private final long deadline;
  private long read;

  /** A stream of at most {@code limit} bytes read before {@code deadline} on the ticker. */
  BoundedStream(InputStream in, long limit, URI uri, String what, Ticker ticker, long deadline) {
    super(in);
    this.limit = limit;
    this.uri = uri;
    this.what = what;
    this.ticker = ticker;
    this.deadline = deadline;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long k = super.skip(n);
    count(k);
    return k;
  }

  private void count(long n) throws SourceException {
    if (ticker.read() - deadline > 0) {
      throw new SourceException(uri, what + ": out of time", false, null);
    }
    read += n;
    if (read > limit) {
      throw new SourceException(uri, what + " is larger than " + limit + " bytes", false, null);
    }
  }
}
