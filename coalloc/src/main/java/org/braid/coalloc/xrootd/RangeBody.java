package org.braid.coalloc.xrootd;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.xrootd.Frame.Header;
import org.braid.coalloc.xrootd.Frame.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One range read with kXR_read on a session's file handle: exactly {@code length} bytes streamed
 * from the answers' frames (kXR_oksofar parts, then kXR_ok), or a {@link SourceException}. A range
 * longer than {@link #MAX_READ} bytes takes several requests, one after the other. Read to its end,
 * the session goes back to the source's pool; closed early, its connection is closed.
 */
final class RangeBody implements ReadableByteChannel {
  private static final Logger LOG = LoggerFactory.getLogger(XrootdRangeSource.class);

  /** The most one kXR_read asks for. */
  static final int MAX_READ = 1 << 30;

  /** What the channel does with its session once done: keep it (true) or close it (false). */
  interface Release {
    void release(Session s, boolean reusable);
  }

  private final URI uri;
  private final Session session;
  private final Release release;
  private final long offset;
  private final long length;
  private final Duration stall;
  private final byte[] buf = new byte[64 * 1024];
  private long delivered;
  private long requestEnd;
  private long frameLeft;
  private boolean inRequest;
  private int waits;
  private boolean open = true;
  private final long created = System.nanoTime();
  private long firstByte;

  RangeBody(URI uri, Session session, Release release, long offset, long length, Duration stall) {
    this.uri = uri;
    this.session = session;
    this.release = release;
    this.offset = offset;
    this.length = length;
    this.stall = stall;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (delivered == length) {
      return -1;
    }
    if (!open) {
      throw new ClosedChannelException();
    }
    try {
      while (frameLeft == 0) {
        nextFrame();
      }
      int n = (int) Math.min(Math.min(dst.remaining(), frameLeft), buf.length);
      InputStream in = session.connection.input();
      int got = in.read(buf, 0, n);
      if (got < 0) {
        throw new SourceException.BodyLengthException(
            uri, "connection closed after " + delivered + " of " + length + " bytes", null);
      }
      if (firstByte == 0) {
        firstByte = System.nanoTime();
      }
      dst.put(buf, 0, got);
      delivered += got;
      frameLeft -= got;
      if (delivered == length) {
        complete();
      }
      return got;
    } catch (SocketTimeoutException e) {
      fail();
      throw new SourceException.StalledException(
          uri,
          "stalled: no data for "
              + stall.toSeconds()
              + " s after "
              + delivered
              + " of "
              + length
              + " bytes",
          e);
    } catch (SourceException e) {
      fail();
      throw e;
    } catch (IOException e) {
      fail();
      throw new SourceException.ConnectionException(
          uri,
          "connection failed after "
              + delivered
              + " of "
              + length
              + " bytes: "
              + Connection.describe(e),
          e);
    }
  }

  /** Reads the next frame's header, sending the next kXR_read first when the last one is done. */
  private void nextFrame() throws IOException {
    Connection c = session.connection;
    if (!inRequest) {
      if (requestEnd > delivered) {
        throw new SourceException.BodyLengthException(
            uri,
            "the server sent "
                + delivered
                + " of "
                + length
                + " bytes and ended the read: the file is shorter than the range",
            null);
      }
      sendRead();
    }
    Header h = c.nextHeader();
    if (h.streamId() != Connection.STREAM) {
      throw c.protocolError("answer for stream " + h.streamId() + " during a read");
    }
    switch (h.status()) {
      case Xrd.OKSOFAR:
      case Xrd.OK:
        if (delivered + h.length() > requestEnd) {
          throw new SourceException.BodyLengthException(
              uri,
              "server sent more than the " + (requestEnd - delivered) + " requested bytes",
              /* tooLong= */ true);
        }
        frameLeft = h.length();
        if (h.status() == Xrd.OK) {
          inRequest = false;
        }
        return;
      case Xrd.WAIT:
        c.waitOut(Xrd.READ, c.response(h), ++waits);
        requestEnd = delivered; // asks again for the rest
        inRequest = false;
        return;
      case Xrd.WAITRESP:
        c.awaitAsync(c.response(h)); // the data comes in a kXR_attn: nextHeader unwraps it
        return;
      case Xrd.ERROR:
        throw c.error(Xrd.READ, c.response(h));
      case Xrd.REDIRECT:
        Response r = c.response(h);
        throw new SourceException(
            uri, "redirected to " + r.textAfterInt() + " during a read", true, null);
      default:
        throw c.protocolError("unexpected status " + h.status() + " in answer to kXR_read");
    }
  }

  private void sendRead() throws IOException {
    int rlen = (int) Math.min(MAX_READ, length - delivered);
    ByteBuffer p = Frame.params().put(session.handle).putLong(offset + delivered).putInt(rlen);
    session.connection.send(Xrd.READ, p.array(), new byte[0]);
    requestEnd = delivered + rlen;
    inRequest = true;
  }

  /** All bytes are in: the read must end here; the session can serve the next range. */
  private void complete() throws IOException {
    while (inRequest) {
      Header h = session.connection.nextHeader();
      if ((h.status() != Xrd.OK && h.status() != Xrd.OKSOFAR) || h.length() != 0) {
        throw new SourceException.BodyLengthException(
            uri, "server sent more than the " + length + " requested bytes", /* tooLong= */ true);
      }
      inRequest = h.status() != Xrd.OK;
    }
    open = false;
    if (LOG.isDebugEnabled()) {
      long now = System.nanoTime();
      LOG.debug(
          "{}: range {}+{}: first byte after {} ms, all in {} ms",
          uri,
          offset,
          length,
          (firstByte - created) / 1_000_000,
          (now - created) / 1_000_000);
    }
    release.release(session, true);
  }

  private void fail() {
    if (open) {
      open = false;
      release.release(session, false);
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    fail();
  }
}
