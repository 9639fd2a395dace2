package org.braid.coalloc;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a partial retrieve in GridFTP extended block mode (MODE E) with parallel data connections
 * on a logged-in control connection: {@code MODE E}, {@code SBUF} (or {@code SITE RETRBUFSIZE})
 * when a TCP buffer is set, {@code PORT} once (the data connections are kept between ranges),
 * {@code OPTS RETR Parallelism=n,n,n;} when the stream count changes, then {@code ERET P offset
 * length path}. The body is a {@link ModeEBody}; when it completes, the server's final reply is
 * read, the rate goes to the {@link StreamTuner} and the control connection back to the pool.
 */
final class GridFtpModeE {
  private static final Logger LOG = LoggerFactory.getLogger(GridFtpRangeSource.class);

  /** Extended-block replies a retrieve may send before its final one (restart, performance). */
  private static final int MAX_MARKERS = 10_000;

  /** The server refused MODE E or ERET: the source retrieves in stream mode instead. */
  static final class Unsupported extends IOException {
    private static final long serialVersionUID = 1L;

    Unsupported(String message) {
      super(message);
    }
  }

  /** What the source lends a transfer: its URL, timeouts and how it takes sessions back. */
  interface Owner {
    URI uri();

    Duration stallTimeout();

    void release(FtpSession s, boolean reusable);
  }

  private GridFtpModeE() {}

  /**
   * Retrieves {@code [offset, offset + length)} of {@code path} on the session.
   *
   * @param buffer the TCP buffer in bytes for {@code SBUF}, 0 to leave it to the systems
   * @throws Unsupported if the server refuses MODE E or ERET (the session is closed)
   * @throws SourceException if the server refuses anything else or fails
   */
  static ReadableByteChannel open(
      Owner owner,
      FtpSession s,
      String path,
      long offset,
      long length,
      StreamTuner tuner,
      int buffer)
      throws IOException {
    long t0 = System.nanoTime();
    try {
      // the set-up still needed, the retrieve: one batch, one round trip
      int streams = tuner.streams();
      queueSetUp(s, streams, buffer);
      s.send("ERET P " + offset + " " + length + " " + path);
      s.flush();
      long start = System.nanoTime();
      ModeEChannels ch = confirmSetUp(owner, s, tuner, start, /* last= */ false);
      FtpSession.Reply r = s.read();
      if (r.code() == 500 || r.code() == 502 || r.code() == 504) {
        throw new Unsupported("ERET refused: " + r);
      }
      if (r.code() != 150 && r.code() != 125) {
        throw refused(owner, r, "ERET");
      }
      long answered = System.nanoTime();
      int window = Math.max(ModeEChannels.MIN_WINDOW, streams * 2 * (256 << 10));
      ModeEBody.Ending ending =
          new ModeEBody.Ending() {
            @Override
            public void complete() throws IOException {
              long data = System.nanoTime();
              finish(owner, s, "ERET");
              if (LOG.isDebugEnabled()) {
                LOG.debug(
                    "{}: range {}+{} over {} streams: ERET answered after {} ms, data in {} ms,"
                        + " final reply {} ms later",
                    owner.uri(),
                    offset,
                    length,
                    streams,
                    (answered - t0) / 1_000_000,
                    (data - answered) / 1_000_000,
                    (System.nanoTime() - data) / 1_000_000);
              }
              tuner.record(streams, length, System.nanoTime() - start);
              owner.release(s, true);
            }

            @Override
            public void abandon() {
              owner.release(s, false);
            }
          };
      return new ModeEBody(owner.uri(), ch, ending, length, streams, window, owner.stallTimeout());
    } catch (IOException | RuntimeException e) {
      owner.release(s, false);
      if (e instanceof SocketTimeoutException) {
        throw new SourceException.StalledException(
            owner.uri(), "no answer within " + owner.stallTimeout().toSeconds() + " s", e);
      }
      if (e instanceof SourceException || e instanceof Unsupported || !(e instanceof IOException)) {
        throw e;
      }
      throw new SourceException.ConnectionException(
          owner.uri(), "request failed: " + HttpRangeSource.describe((IOException) e), e);
    }
  }

  /**
   * Queues what the session still needs for a retrieve over {@code streams} data connections,
   * without waiting: {@code MODE E} and {@code SBUF} once per control connection (with the
   * listener), {@code OPTS RETR Parallelism} and {@code PORT} when the count changes (the server
   * applies the parallelism when PORT sets up its data channel). {@link #confirmSetUp} reads the
   * replies. A probe queues it behind its own commands, so that the first range only asks ERET.
   */
  static void queueSetUp(FtpSession s, int streams, int buffer) throws IOException {
    ModeEChannels ch = s.modeE;
    if (ch == null) {
      ch = ModeEChannels.listen(s.sock.getLocalAddress(), s.sock.getInetAddress(), buffer);
      s.modeE = ch;
      s.send("MODE E");
      ch.unconfirmed.add("MODE E");
      if (buffer > 0) {
        s.send("SBUF " + buffer);
        ch.unconfirmed.add("SBUF " + buffer);
      }
    }
    if (ch.parallelism != streams) {
      ch.closeConnections();
      s.send("OPTS RETR Parallelism=" + streams + "," + streams + "," + streams + ";");
      ch.unconfirmed.add("OPTS RETR");
      s.send(ch.portCommand());
      ch.unconfirmed.add("PORT");
      ch.parallelism = streams;
    }
  }

  /**
   * Reads the replies of the set-up commands queued by {@link #queueSetUp}; the first reply's delay
   * after {@code sentNanos} is a control round trip for the tuner.
   *
   * @throws Unsupported if the server refuses MODE E
   * @throws SourceException if it refuses the parallelism or PORT
   */
  static ModeEChannels confirmSetUp(
      Owner owner, FtpSession s, StreamTuner tuner, long sentNanos, boolean last)
      throws IOException {
    ModeEChannels ch = s.modeE;
    boolean first = true;
    FtpSession.Reply sbufRefused = null;
    String buffer = null;
    for (String c; (c = ch.unconfirmed.poll()) != null; ) {
      FtpSession.Reply r = s.read();
      if (first && sentNanos != 0) {
        tuner.roundTrip(System.nanoTime() - sentNanos);
        first = false;
      }
      if (c.equals("MODE E") && r.code() != 200) {
        throw new Unsupported("MODE E refused: " + r);
      } else if (c.startsWith("SBUF") && r.code() != 200) {
        sbufRefused = r;
        buffer = c.substring(5);
      } else if (!c.equals("MODE E") && !c.startsWith("SBUF")) {
        expect(owner, r, 200, c);
      }
    }
    if (sbufRefused != null) {
      retrBufSize(owner, s, buffer, sbufRefused, last);
    }
    return ch;
  }

  private static void retrBufSize(
      Owner owner, FtpSession s, String bytes, FtpSession.Reply refused, boolean canAsk)
      throws IOException {
    FtpSession.Reply r = canAsk ? s.command("SITE RETRBUFSIZE " + bytes) : refused;
    if (r.code() != 200) {
      LOG.debug("{}: the server sets no TCP buffer of {} bytes: {}", owner.uri(), bytes, r);
    }
  }

  /** Reads the final reply of a transfer, skipping restart and performance markers. */
  static void finish(Owner owner, FtpSession s, String what) throws IOException {
    for (int i = 0; i < MAX_MARKERS; i++) {
      FtpSession.Reply done = s.read();
      if (done.code() == 111 || done.code() == 112) {
        continue;
      }
      if (done.code() != 226 && done.code() != 250) {
        throw refused(owner, done, what + " transfer");
      }
      return;
    }
    throw new SourceException(
        owner.uri(), "more than " + MAX_MARKERS + " markers without a final reply", false, null);
  }

  private static void expect(Owner owner, FtpSession.Reply r, int code, String what)
      throws SourceException {
    if (r.code() != code) {
      throw refused(owner, r, what);
    }
  }

  private static SourceException refused(Owner owner, FtpSession.Reply r, String what) {
    boolean retryable = r.code() >= 400 && r.code() < 500;
    return new SourceException(owner.uri(), what + " refused: " + r, retryable, null);
  }
}
