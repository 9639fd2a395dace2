package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tail of a dataset job split across servers: a {@link DatasetTask.Mode#RANGE} task fetches
 * bytes {@code [from, stop)} of a file from its server into the temporary file of the task that
 * owns the file (a whole-file request on another server, cut at {@code from}); the owner, once it
 * reaches its cut, waits for its pieces, fetches any that failed itself (ranges from its own
 * server), and hashes the bytes they wrote, so the file is verified as a whole. Thread-safe.
 */
final class DatasetPieces {
  private final DatasetSpec spec;
  private final SourcePool pool;

  DatasetPieces(DatasetSpec spec, SourcePool pool) {
    this.spec = spec;
    this.pool = pool;
  }

  /** Runs a piece to its outcome (bytes written into the owner's file); never throws. */
  DatasetOutcome fetch(DatasetTask t, ByteBuffer buf) {
    DatasetSplit split = t.owner.split;
    URI src = t.sources.get(0);
    DatasetServer server = t.servers.get(0);
    boolean ok = false;
    try {
      long got = copy(src, t, server, t.owner.temp, buf);
      ok = true;
      return DatasetOutcome.ok(t.size, Map.of(), Map.of(server.key, got));
    } catch (LocalException e) {
      return DatasetOutcome.local(t.size, OneLine.of(e)); // the owner fetches the range again
    } catch (IOException e) {
      LowSpeed slow = t.lowSpeed;
      if (slow != null && slow.check(spec.ticker().read())) {
        e = slow.exception(); // abandoned by the job's watch: a failure of the piece's server
      } else if (t.cancelled) {
        return DatasetOutcome.cancelled(t.size);
      }
      boolean retry = !(e instanceof SourceException se) || se.retryable();
      return DatasetOutcome.failed(
          t.size,
          List.of(new DatasetOutcome.Failure(src, src + ": " + OneLine.of(e), retry)),
          false);
    } finally {
      split.done(t, ok);
    }
  }

  /**
   * Copies bytes {@code [t.from, t.stop())} of the file from {@code src} into {@code temp} at their
   * offsets, stopping early when the task is cut; returns how many were written.
   */
  private long copy(URI src, DatasetTask t, DatasetServer server, Path temp, ByteBuffer buf)
      throws IOException {
    long len = t.stop() - t.from;
    if (temp == null || len <= 0) {
      throw new SourceException(src, "no range to fetch", false, null);
    }
    try (RangeSource rs = pool.open(src)) {
      RangeSource.First first = rs.openFirst(t.from, len);
      if (first.validators().size() != t.size) {
        closeQuietly(first.data());
        throw new SourceException(
            src, "serves " + first.validators().size() + " bytes, not " + t.size, false, null);
      }
      ReadableByteChannel ch = first.data() != null ? first.data() : rs.open(t.from, len);
      t.onCancel(() -> closeQuietly(ch));
      Guards g = spec.guards();
      // --low-speed-limit as for a whole file: a piece slower than that for its time is abandoned
      // (DatasetScheduler.sample), and its owner fetches the range itself
      LowSpeed slow = new LowSpeed(src, g.lowSpeedLimit(), g.lowSpeedTime(), spec.ticker().read());
      t.lowSpeed = slow;
      try (ch;
          FileChannel out = openLocal(temp)) {
        long got = 0;
        while (got < t.stop() - t.from) {
          if (t.cancelled) {
            throw new SourceException(src, "cancelled", false, null);
          }
          buf.clear();
          int n = t.read(ch, buf);
          if (n == DatasetTask.CUT) {
            break; // stalled and cut where it was (DatasetTask.cutHere): the rest is another's
          }
          if (n < 0) {
            throw new SourceException.BodyLengthException(
                src, "ended after " + got + " of " + len + " bytes", null);
          }
          if (n == 0) {
            continue;
          }
          if (t.firstByteNanos < 0) {
            t.firstByteNanos = spec.ticker().read();
          }
          t.lastByteNanos = spec.ticker().read();
          server.delivered.add(n);
          int keep = t.accept(got, n);
          buf.flip().limit(keep);
          write(out, buf, t.from + got);
          got += keep;
          t.received = got;
          if (keep < n) {
            break; // cut: the rest is another piece's
          }
          slow.received(n, 0, spec.ticker().read());
        }
        return got;
      } finally {
        t.onCancel(null);
      }
    }
  }

  /**
   * The owner's part once it reached its cut at {@code done}: gives its server back to the job,
   * waits for the pieces, fetches the ranges of failed ones from its own source, and hashes bytes
   * {@code [done, size)} from the file into {@code digests}. Returns the bytes each server
   * delivered into the file.
   *
   * @throws IOException if a failed piece cannot be fetched from the owner's source either
   */
  Map<String, Long> finish(
      DatasetTask t,
      DatasetScheduler scheduler,
      FileChannel out,
      long done,
      StreamDigests digests,
      ByteBuffer buf)
      throws IOException {
    scheduler.released(t);
    DatasetSplit split = t.split;
    try {
      split.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SourceException(t.sources.get(0), "interrupted", true, e);
    }
    Map<String, Long> bytes = new LinkedHashMap<>();
    bytes.put(t.servers.get(0).key, done);
    for (Map.Entry<String, Long> e : split.bytes().entrySet()) {
      bytes.merge(e.getKey(), e.getValue(), Long::sum);
    }
    for (long[] r : split.failed()) {
      DatasetTask again = new DatasetTask(t, t.sources.get(0), t.servers.get(0), r[0], r[1], 0);
      bytes.merge(
          t.servers.get(0).key,
          copy(t.sources.get(0), again, t.servers.get(0), t.temp, buf),
          Long::sum);
    }
    for (long at = done; at < t.size; ) {
      buf.clear().limit((int) Math.min(buf.capacity(), t.size - at));
      int n = out.read(buf, at);
      if (n <= 0) {
        throw new IOException("the file ended at " + at + " of " + t.size + " bytes");
      }
      buf.flip();
      digests.update(buf);
      at += n;
    }
    return bytes;
  }

  /** A failure of this machine's file, not of the piece's server. */
  private static final class LocalException extends IOException {
    LocalException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private static FileChannel openLocal(Path temp) throws LocalException {
    try {
      return FileChannel.open(temp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new LocalException(e);
    }
  }

  private static void write(FileChannel out, ByteBuffer buf, long at) throws LocalException {
    try {
      while (buf.hasRemaining()) {
        at += out.write(buf, at);
      }
    } catch (IOException e) {
      throw new LocalException(e);
    }
  }

  private static void closeQuietly(ReadableByteChannel ch) {
    if (ch == null) {
      return;
    }
    try {
      ch.close();
    } catch (IOException | RuntimeException e) {
      // stopping anyway
    }
  }
}
