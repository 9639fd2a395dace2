package org.braid.coalloc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One range retrieved in GridFTP extended block mode over several data connections: each block
 * carries a 17-byte header (descriptor, byte count, offset within the range) and the blocks of the
 * connections arrive interleaved and out of order. They are reassembled in a window ring (one
 * thread, one {@link Selector}); a connection whose next block lies beyond the window waits (TCP
 * flow control slows its sender) until the bytes before it are delivered. The range is complete
 * when every byte arrived and as many EOD markers as the EOF header announced. Exactly {@code
 * length} bytes or a {@link SourceException}; bounded: headers are checked against the range, the
 * EOD count against the connection limit.
 */
final class ModeEBody implements ParallelChannel {
  static final int HEADER = 17;
  static final int EOR = 128;
  static final int EOF = 64;
  static final int SUSPECT = 32;
  static final int RESTART = 16;
  static final int EOD = 8;
  static final int CLOSE = 4;

  /** The most EOD markers an EOF may announce (data connections of one transfer). */
  static final int MAX_EODS = 64;

  /**
   * The most separate pieces a range may be in at once (a server sending tiny scattered blocks).
   */
  static final int MAX_PIECES = 1 << 16;

  /** What the body tells its source when it ends. */
  interface Ending {
    /** Every byte and EOD arrived: read the server's final reply, keep the connections. */
    void complete() throws IOException;

    /** The transfer failed or was abandoned: drop the control and data connections. */
    void abandon();
  }

  /** One data connection's reading state. */
  private static final class Stream {
    final SocketChannel ch;
    final ByteBuffer header = ByteBuffer.allocate(HEADER);
    long pos;
    long left;
    int descriptor;
    boolean sawData;

    Stream(SocketChannel ch) {
      this.ch = ch;
    }
  }

  private final URI uri;
  private final ModeEChannels channels;
  private final Ending ending;
  private final long length;
  private final int streams;
  private final Duration stall;
  private final byte[] ring;
  private final Selector selector;

  /** The bytes received, as merged intervals [from, to) of the range. */
  private final TreeMap<Long, Long> received = new TreeMap<>();

  /** The bytes announced by block headers so far (received or on their way). */
  private final TreeMap<Long, Long> claimed = new TreeMap<>();

  private final List<Stream> paused = new ArrayList<>();
  private long delivered;
  private int eods;
  private long eodsExpected = -1;
  private boolean open = true;

  ModeEBody(
      URI uri,
      ModeEChannels channels,
      Ending ending,
      long length,
      int streams,
      int window,
      Duration stall)
      throws IOException {
    this.uri = uri;
    this.channels = channels;
    this.ending = ending;
    this.length = length;
    this.streams = streams;
    this.stall = stall;
    this.ring = channels.window(window);
    this.selector = Selector.open();
    try {
      channels.listener.register(selector, SelectionKey.OP_ACCEPT);
      for (SocketChannel c : channels.connections) {
        c.register(selector, SelectionKey.OP_READ, new Stream(c));
      }
    } catch (IOException e) {
      selector.close();
      throw e;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (delivered == length && eodsExpected >= 0 && eods >= eodsExpected && !open) {
      return -1;
    }
    if (!open) {
      throw new ClosedChannelException();
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    try {
      while (true) {
        long avail = contiguous() - delivered;
        if (avail > 0 && dst.hasRemaining()) {
          return deliver(dst, avail);
        }
        if (delivered == length && eodsExpected >= 0 && eods == eodsExpected) {
          finish();
          return -1;
        }
        pump();
      }
    } catch (SourceException | RuntimeException e) {
      fail();
      throw e;
    } catch (IOException e) {
      fail();
      throw new SourceException.ConnectionException(
          uri,
          "data connection failed after "
              + delivered
              + " of "
              + length
              + " bytes: "
              + HttpRangeSource.describe(e),
          e);
    }
  }

  /** Copies available bytes from the ring to {@code dst}; resumes waiting connections. */
  private int deliver(ByteBuffer dst, long avail) throws IOException {
    int n = (int) Math.min(avail, dst.remaining());
    int at = (int) (delivered % ring.length);
    int first = Math.min(n, ring.length - at);
    dst.put(ring, at, first);
    if (first < n) {
      dst.put(ring, 0, n - first);
    }
    delivered += n;
    for (Stream s : paused) {
      s.ch.keyFor(selector).interestOps(SelectionKey.OP_READ);
    }
    paused.clear();
    if (delivered == length) {
      // the caller may stop reading at the last byte (the fetch loop does): wait for the EODs now,
      // which follow the data at once, so that the connections are kept for the next range
      while (eodsExpected < 0 || eods < eodsExpected) {
        pump();
      }
      finish();
    }
    return n;
  }

  /** The end of the received bytes that follow {@link #delivered} without a gap. */
  private long contiguous() {
    Map.Entry<Long, Long> e = received.floorEntry(delivered);
    return e != null && e.getValue() > delivered ? e.getValue() : delivered;
  }

  /** Waits for data (at most the stall timeout) and reads what is ready. */
  private void pump() throws IOException {
    if (selector.select(stall.toMillis()) == 0) {
      throw new SourceException.StalledException(
          uri,
          "stalled: no data for "
              + stall.toSeconds()
              + " s after "
              + delivered
              + " of "
              + length
              + " bytes ("
              + eods
              + " of "
              + (eodsExpected < 0 ? "?" : eodsExpected)
              + " data connections ended)",
          null);
    }
    for (SelectionKey k : selector.selectedKeys()) {
      if (k.isAcceptable()) {
        SocketChannel c = channels.listener.accept();
        if (c != null && !fromServer(c)) {
          ModeEChannels.closeQuietly(c); // not the server: no data from elsewhere
        } else if (c != null) {
          if (channels.connections.size() >= MAX_EODS) {
            c.close();
            throw new SourceException(
                uri, "the server opened more than " + MAX_EODS + " data connections", false, null);
          }
          c.configureBlocking(false);
          channels.connections.add(c);
          c.register(selector, SelectionKey.OP_READ, new Stream(c));
        }
      } else if (k.isValid() && k.isReadable()) {
        readFrom((Stream) k.attachment(), k);
      }
    }
    selector.selectedKeys().clear();
  }

  private boolean fromServer(SocketChannel c) throws IOException {
    return ((InetSocketAddress) c.getRemoteAddress()).getAddress().equals(channels.server);
  }

  private void readFrom(Stream s, SelectionKey k) throws IOException {
    if (s.left == 0) {
      if (s.ch.read(s.header) < 0) {
        closed(s, k);
        return;
      }
      if (!s.header.hasRemaining()) {
        header(s);
      }
      return;
    }
    long windowEnd = delivered + ring.length;
    if (s.pos >= windowEnd) {
      k.interestOps(0); // beyond the window: wait for the bytes before it
      paused.add(s);
      return;
    }
    int at = (int) (s.pos % ring.length);
    int n = (int) Math.min(Math.min(s.left, windowEnd - s.pos), ring.length - at);
    int got = s.ch.read(ByteBuffer.wrap(ring, at, n));
    if (got < 0) {
      throw new SourceException.BodyLengthException(
          uri,
          "a data connection closed in the middle of a block, after "
              + delivered
              + " of "
              + length
              + " bytes",
          null);
    }
    add(received, s.pos, s.pos + got);
    s.pos += got;
    s.left -= got;
    if (s.left == 0) {
      endOfBlock(s, k);
    }
  }

  /** A complete header: checks it against the range and the blocks received. */
  private void header(Stream s) throws IOException {
    s.header.flip();
    int d = s.header.get() & 0xff;
    long count = s.header.getLong();
    long offset = s.header.getLong();
    s.header.clear();
    if ((d & (SUSPECT | RESTART | EOR)) != 0) {
      throw new SourceException(
          uri,
          "unexpected extended block descriptor " + d + " (error, restart or record)",
          false,
          null);
    }
    s.descriptor = d;
    if ((d & EOF) != 0) {
      if (offset < 1 || offset > MAX_EODS || (eodsExpected >= 0 && eodsExpected != offset)) {
        throw new SourceException(
            uri, "bad EOF block: " + offset + " data connections announced", false, null);
      }
      eodsExpected = offset;
      count = 0; // an EOF header's count field is unused
    }
    if (count < 0 || offset < 0 || ((d & EOF) == 0 && offset + count > length)) {
      throw new SourceException.BodyLengthException(
          uri,
          "block of "
              + count
              + " bytes at "
              + offset
              + " lies outside the "
              + length
              + "-byte range",
          /* tooLong= */ true);
    }
    if (count > 0) {
      if (offset < delivered || overlaps(claimed, offset, offset + count)) {
        throw new SourceException(
            uri,
            "block of " + count + " bytes at " + offset + " overlaps bytes already received",
            false,
            null);
      }
      add(claimed, offset, offset + count);
    }
    s.pos = offset;
    s.left = count;
    s.sawData = true;
    if (count == 0) {
      endOfBlock(s, s.ch.keyFor(selector));
    }
  }

  private void endOfBlock(Stream s, SelectionKey k) throws IOException {
    if ((s.descriptor & EOD) != 0) {
      eods++;
      if (eods > MAX_EODS || (eodsExpected >= 0 && eods > eodsExpected)) {
        throw new SourceException(uri, "more EOD markers than data connections", false, null);
      }
    }
    if ((s.descriptor & CLOSE) != 0) {
      channels.connections.remove(s.ch);
      k.cancel();
      s.ch.close();
    }
    s.descriptor = 0;
  }

  /** A connection ended: harmless before it carried anything of this transfer (a stale cache). */
  private void closed(Stream s, SelectionKey k) throws IOException {
    channels.connections.remove(s.ch);
    k.cancel();
    s.ch.close();
    if (s.sawData && s.header.position() > 0) {
      throw new SourceException.BodyLengthException(
          uri, "a data connection closed in the middle of a block header", null);
    }
  }

  /** Whether [from, to) overlaps an interval of {@code m}. */
  private static boolean overlaps(TreeMap<Long, Long> m, long from, long to) {
    Map.Entry<Long, Long> e = m.floorEntry(to - 1);
    return e != null && e.getValue() > from;
  }

  /**
   * Adds [from, to) to the intervals of {@code m}, merging neighbours and forgetting those wholly
   * delivered; fails when the range is in more than {@link #MAX_PIECES} pieces.
   */
  private void add(TreeMap<Long, Long> m, long from, long to) throws SourceException {
    Map.Entry<Long, Long> before = m.floorEntry(from);
    if (before != null && before.getValue() == from) {
      from = before.getKey();
      m.remove(from);
    }
    Long after = m.get(to);
    if (after != null) {
      m.remove(to);
      to = after;
    }
    m.put(from, to);
    while (m.size() > 1 && m.firstEntry().getValue() <= delivered) {
      m.pollFirstEntry();
    }
    if (m.size() > MAX_PIECES) {
      throw new SourceException(
          uri,
          "the server scattered the range into more than " + MAX_PIECES + " pieces",
          false,
          null);
    }
  }

  private void finish() throws IOException {
    if (!open) {
      return;
    }
    open = false;
    deregister();
    try {
      ending.complete();
    } catch (IOException | RuntimeException e) {
      ending.abandon();
      throw e;
    }
  }

  private void fail() {
    if (open) {
      open = false;
      deregister();
      ending.abandon();
    }
  }

  private void deregister() {
    // cancels the keys; the connections stay open for the next transfer
    ModeEChannels.closeQuietly(selector);
  }

  @Override
  public int streams() {
    return streams;
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
