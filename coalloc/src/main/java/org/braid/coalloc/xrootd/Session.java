package org.braid.coalloc.xrootd;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.Validators;
import org.braid.coalloc.xrootd.Frame.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection with the replica's file open for reading (kXR_open with kXR_retstat), found by
 * following kXR_redirect answers from the URL's server. Reads use its file handle; closing it sends
 * kXR_close. Used by one thread at a time.
 */
final class Session {
  private static final Logger LOG = LoggerFactory.getLogger(XrootdRangeSource.class);

  /** How many redirects opening a file may follow. */
  static final int MAX_REDIRECTS = 8;

  final Connection connection;
  final byte[] handle;
  final Validators validators;

  /** The checksum query sent with kXR_open (see {@link #open}), or null. */
  final Connection.Call checksum;

  /** False when the checksum query's answer did not come in time: the connection is out of step. */
  final boolean inStep;

  private Session(
      Connection connection,
      byte[] handle,
      Validators validators,
      Connection.Call checksum,
      boolean inStep) {
    this.connection = connection;
    this.handle = handle;
    this.validators = validators;
    this.checksum = checksum;
    this.inStep = inStep;
  }

  /**
   * Connects, logs in and opens the file, following redirects.
   *
   * @throws SourceException if the file cannot be opened or is not a regular file
   */
  static Session open(URI replica, Target first, SourceOptions o, Supplier<SSLContext> tls)
      throws IOException {
    return open(replica, first, o, tls, null);
  }

  /**
   * As above; with a {@code checksumBudget}, the checksum query goes with kXR_open (one round trip
   * for both) and its answer is awaited at most that long: then {@link #checksum} holds it (not
   * {@link Connection.Call#done} if late, and {@link #inStep} is false).
   */
  static Session open(
      URI replica, Target first, SourceOptions o, Supplier<SSLContext> tls, Duration checksumBudget)
      throws IOException {
    Target t = first;
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      long t0 = System.nanoTime();
      Connection c = Connection.open(replica, t, o, tls);
      long t1 = System.nanoTime();
      try {
        ByteBuffer p = Frame.params().putShort((short) 0);
        p.putShort((short) (Xrd.OPEN_READ | Xrd.OPEN_RETSTAT));
        Connection.Call open =
            new Connection.Call(
                Connection.STREAM, Xrd.OPEN, p.array(), Frame.text(t.pathWithCgi()));
        Connection.Call sum =
            checksumBudget == null ? null : XrootdRangeSource.checksumCall(t.pathWithCgi(), null);
        boolean inStep = true;
        if (sum == null) {
          c.callAll(open);
        } else {
          try {
            c.callAllWithin(checksumBudget, open, sum);
          } catch (SocketTimeoutException e) {
            if (!open.done()) {
              throw e;
            }
            inStep = false;
          }
        }
        Response r = open.answer();
        if (r.status() == Xrd.REDIRECT) {
          c.close();
          t = redirect(c, t, r);
          continue;
        }
        if (r.body().length < 4) {
          throw c.protocolError("kXR_open answer of " + r.body().length + " bytes");
        }
        byte[] handle = new byte[4];
        System.arraycopy(r.body(), 0, handle, 0, 4);
        String stat = r.body().length > 12 ? Frame.text(r.body(), 12) : stat(c, handle);
        LOG.debug(
            "{}: connected and logged in to {} in {} ms, file open {} ms later",
            replica,
            t.server(),
            (t1 - t0) / 1_000_000,
            (System.nanoTime() - t1) / 1_000_000);
        return new Session(c, handle, validators(c, stat), sum, inStep);
      } catch (IOException | RuntimeException e) {
        c.close();
        throw e;
      }
    }
    throw new SourceException(
        replica,
        "more than " + MAX_REDIRECTS + " redirects (the last to " + t.server() + ")",
        false,
        null);
  }

  private static Target redirect(Connection c, Target t, Response r) throws SourceException {
    try {
      return t.redirect(r.textAfterInt(), r.int0());
    } catch (IllegalArgumentException e) {
      throw c.protocolError(e.getMessage());
    }
  }

  /** kXR_stat of the open file, for servers that do not return it with kXR_open. */
  private static String stat(Connection c, byte[] handle) throws IOException {
    ByteBuffer p = Frame.params().position(12);
    p.put(handle);
    Response r = c.call(Xrd.STAT, p.array(), new byte[0]);
    if (r.status() != Xrd.OK) {
      throw c.protocolError("kXR_stat answered with status " + r.status());
    }
    return Frame.text(r.body(), 0);
  }

  /** The validators of a stat answer "id size flags mtime ...": the size and the mtime. */
  static Validators validators(Connection c, String stat) throws SourceException {
    String[] f = stat.trim().split("\\s+");
    long size;
    int flags;
    try {
      size = Long.parseLong(f[1]);
      flags = Integer.parseInt(f[2]);
      Long.parseLong(f[3]);
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw c.protocolError("unreadable stat answer '" + stat + "'");
    }
    if ((flags & (Xrd.STAT_DIR | Xrd.STAT_OTHER)) != 0) {
      throw new SourceException(
          c.replica,
          c.target.path() + " is not a regular file (stat flags " + flags + ")",
          false,
          null);
    }
    if (size < 0) {
      throw c.protocolError("negative size in stat answer '" + stat + "'");
    }
    return new Validators(size, null, f[3]);
  }

  /** Closes the file and the connection. */
  void close() {
    connection.closeFile(handle);
  }
}
