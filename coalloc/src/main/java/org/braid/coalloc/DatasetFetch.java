package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.braid.coalloc.journal.JournalLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link DatasetTask}s of a job: a single-server task as one probe and one request for the
 * whole file, hashed as it streams into {@code NAME.part} (a second copy at the tail into {@code
 * NAME.dup.part}), verified, flushed and renamed; a co-allocated one as a {@link Download} into the
 * same place. Each verified file is recorded in the {@link DatasetState} and each request in the
 * journal. Thread-safe: a worker thread calls {@link #run} for one task at a time, with its own
 * buffer.
 */
final class DatasetFetch {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetFetch.class);

  /**
   * Files at least this large are flushed to disk before their rename; smaller ones are left to the
   * page cache, as curl and aria2c leave every file (a flush per file would cost more than the
   * transfer of a small one).
   */
  static final long FLUSH_MIN = 1L << 20;

  private final DatasetSpec spec;
  private final DatasetOutput output;
  private final DatasetState state;
  private final DatasetScheduler scheduler;
  private final SourcePool pool;
  private final DatasetJournal journal;
  private final DatasetCoalloc coalloc;
  private final DatasetPieces pieces;

  /** Told of the job's first body byte (set by the job before any task runs). */
  DatasetMilestones milestones = DatasetMilestones.NONE;

  /** Told of the first body byte of each file (the job starts its other workers then). */
  volatile Runnable onFirstByte;

  DatasetFetch(
      DatasetSpec spec,
      DatasetOutput output,
      DatasetState state,
      DatasetScheduler scheduler,
      SourcePool pool,
      DatasetJournal journal) {
    this.spec = spec;
    this.output = output;
    this.state = state;
    this.scheduler = scheduler;
    this.pool = pool;
    this.journal = journal;
    this.coalloc = new DatasetCoalloc(spec, pool, this);
    this.pieces = new DatasetPieces(spec, pool);
  }

  /** Thrown by writes so that local disk failures are told apart from replica failures. */
  private static final class LocalException extends IOException {
    LocalException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Runs the task to its outcome; never throws. */
  DatasetOutcome run(DatasetTask t, ByteBuffer buf) {
    if (t.mode == DatasetTask.Mode.RANGE) {
      return pieces.fetch(t, buf);
    }
    DatasetFile f = spec.files().get(t.file);
    Path target;
    try {
      target = output.prepare(f.path());
    } catch (IOException | IllegalArgumentException e) {
      List<DatasetOutcome.Failure> all = new ArrayList<>();
      for (URI u : f.sources()) {
        all.add(new DatasetOutcome.Failure(u, "cannot write it: " + OneLine.of(e), false));
      }
      return DatasetOutcome.failed(t.size, all, false);
    }
    try {
      return t.mode == DatasetTask.Mode.SINGLE
          ? single(t, f, target, buf)
          : coalloc.run(t, f, target);
    } catch (RuntimeException e) {
      LOG.error("bug while fetching {}", DatasetNames.shown(f.path()), e);
      return DatasetOutcome.local(t.size, "internal error: " + OneLine.of(e));
    } finally {
      DatasetSplit split = t.split;
      if (split != null) {
        // pieces still writing into the temporary file end before the file is tried again
        split.cancel();
        try {
          split.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * A file from one server: one whole-file request (HTTP: a plain GET whose answer tells the size
   * and validators; other protocols: the source's probe, then one range of the whole file), hashed
   * as it streams into the temporary file, verified, renamed.
   */
  private DatasetOutcome single(DatasetTask t, DatasetFile f, Path target, ByteBuffer buf) {
    URI src = t.sources.get(0);
    DatasetServer server = t.servers.get(0);
    Path temp = target.resolveSibling(target.getFileName() + (t.duplicate ? ".dup.part" : ".part"));
    String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    Instant start = spec.clock().instant();
    long startNanos = spec.ticker().read();
    long size = t.size;
    long[] got = {0};
    try (DatasetWhole w = DatasetWhole.open(pool, src, spec.options(), t)) {
      Validators v = w.validators();
      if (f.size() >= 0 && v.size() != f.size()) {
        return failed(t, src, "serves " + v.size() + " bytes, the dataset says " + f.size(), false);
      }
      if (t.size < 0
          && !t.duplicate
          && v.size() >= DatasetScheduler.COALLOCATE_MIN
          && f.sources().size() > 1
          && !scheduler.keepDiscovered(t, v.size())) {
        // planned without a size and too large for this server alone: back to the scheduler,
        // which co-allocates it
        return DatasetOutcome.cancelled(v.size());
      }
      size = v.size();
      t.size = size;
      // the dataset's checksums and those the replica publishes (its own digest of its copy)
      List<Checksum> sums = new ArrayList<>(f.checksums());
      for (Checksum c : v.checksums()) {
        if (sums.stream().noneMatch(x -> x.algorithm().equals(c.algorithm()))) {
          sums.add(c);
        }
      }
      StreamDigests digests = new StreamDigests(StreamDigests.algorithms(sums));
      Map<String, Long> bytes = Map.of(server.key, size);
      try (FileChannel out = create(temp)) {
        t.temp = temp;
        if (size > 0) {
          ReadableByteChannel ch = w.body(size);
          t.onCancel(() -> closeQuietly(ch));
          try (ch) {
            copy(t, ch, out, digests, server, buf, got);
          } finally {
            t.onCancel(null);
          }
        }
        if (got[0] < size) {
          // cut at the tail: the rest came from other servers (DatasetPieces)
          bytes = pieces.finish(t, scheduler, out, got[0], digests, buf);
        } else {
          // the body is in: the server takes its next file while this one is verified and renamed
          scheduler.released(t);
        }
        if (size >= FLUSH_MIN) {
          force(out);
        }
      }
      Map<String, String> d = digests.finish();
      Checksum bad = StreamDigests.mismatch(d, sums);
      if (bad != null) {
        deleteQuietly(temp);
        journal(id, src, size, start, startNanos, 0, "error: " + bad.algorithm() + " mismatch");
        return failed(
            t,
            src,
            bad.algorithm()
                + " mismatch: expected "
                + bad.hex()
                + ", got "
                + d.get(bad.algorithm())
                + " (a corrupt copy)",
            false);
      }
      if (!scheduler.claim(t)) {
        deleteQuietly(temp);
        return DatasetOutcome.cancelled(size);
      }
      commit(temp, target, f.path(), size, d);
      journal(id, src, size, start, startNanos, got[0], "ok");
      return DatasetOutcome.ok(size, d, bytes);
    } catch (LocalException e) {
      deleteQuietly(temp);
      return DatasetOutcome.local(size, OneLine.of(e));
    } catch (IOException e) {
      deleteQuietly(temp);
      LowSpeed slow = t.lowSpeed;
      if (slow != null && slow.check(spec.ticker().read())) {
        e = slow.exception();
      } else if (t.cancelled) {
        return DatasetOutcome.cancelled(size);
      }
      boolean retry = !(e instanceof SourceException se) || se.retryable();
      String why = OneLine.of(e);
      journal(id, src, Math.max(0, size), start, startNanos, got[0], "error: " + why);
      return DatasetOutcome.failed(
          size,
          List.of(new DatasetOutcome.Failure(src, src + ": " + why, retry, retryAfter(e))),
          false);
    }
  }

  private static Duration retryAfter(IOException e) {
    return e instanceof SourceException se ? se.retryAfter() : null;
  }

  /**
   * Copies the body into the file, hashing it, with the per-file guards: the rate limit (each file
   * at most {@code --limit-rate}) and the low-speed limit; counts the bytes into {@code got[0]}.
   */
  private void copy(
      DatasetTask t,
      ReadableByteChannel ch,
      FileChannel out,
      StreamDigests digests,
      DatasetServer server,
      ByteBuffer buf,
      long[] got)
      throws IOException {
    Guards g = spec.guards();
    Throttle throttle = new Throttle(g.maxBytesPerSecond());
    LowSpeed slow =
        new LowSpeed(t.sources.get(0), g.lowSpeedLimit(), g.lowSpeedTime(), spec.ticker().read());
    t.lowSpeed = slow;
    while (got[0] < t.stop()) {
      if (t.cancelled) {
        throw new SourceException(t.sources.get(0), "cancelled", false, null);
      }
      buf.clear().limit(throttle.chunk(buf.capacity()));
      int n = t.read(ch, buf);
      if (n == DatasetTask.CUT) {
        return; // stalled and cut where it was (DatasetTask.cutHere): the rest is another's
      }
      if (n < 0) {
        throw new SourceException.BodyLengthException(
            t.sources.get(0), "ended after " + got[0] + " of " + t.size + " bytes", null);
      }
      if (n == 0) {
        continue;
      }
      if (t.firstByteNanos < 0) {
        t.firstByteNanos = spec.ticker().read();
        milestones.firstByte();
        Runnable r = onFirstByte;
        if (r != null) {
          r.run();
        }
      }
      if (g.maxBytesPerSecond() == 0) {
        t.lastByteNanos = spec.ticker().read(); // a --limit-rate pause is not a stall
      }
      server.delivered.add(n);
      int keep = t.accept(got[0], n); // the bytes past a cut are another server's
      buf.flip().limit(keep);
      digests.update(buf);
      buf.position(0);
      try {
        while (buf.hasRemaining()) {
          out.write(buf);
        }
      } catch (IOException e) {
        throw new LocalException(e);
      }
      got[0] += keep;
      t.received = got[0];
      if (keep < n) {
        return; // cut: the rest is fetched by other servers
      }
      long paused;
      try {
        paused = throttle.take(n);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SourceException(t.sources.get(0), "interrupted", true, e);
      }
      slow.received(n, paused, spec.ticker().read());
    }
  }

  private static FileChannel create(Path temp) throws LocalException {
    try {
      return FileChannel.open(
          temp,
          StandardOpenOption.CREATE,
          StandardOpenOption.READ,
          StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING,
          LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new LocalException(e);
    }
  }

  private static void force(FileChannel out) throws LocalException {
    try {
      out.force(true);
    } catch (IOException e) {
      throw new LocalException(e);
    }
  }

  /** Gives the verified temporary file its final name and records it. */
  private void commit(Path temp, Path target, String path, long size, Map<String, String> d)
      throws LocalException {
    try {
      try {
        Files.move(
            temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      record(target, path, size, d);
    } catch (IOException e) {
      throw new LocalException(e);
    }
  }

  void record(Path target, String path, long size, Map<String, String> d) throws IOException {
    long mtime = Files.getLastModifiedTime(target, LinkOption.NOFOLLOW_LINKS).toMillis();
    state.record(path, size, mtime, d);
  }

  private DatasetOutcome failed(DatasetTask t, URI src, String why, boolean retry) {
    return DatasetOutcome.failed(
        t.size, List.of(new DatasetOutcome.Failure(src, src + ": " + why, retry)), false);
  }

  private void journal(
      String id, URI src, long size, Instant start, long startNanos, long written, String result) {
    if (journal == null || (result.equals("ok") && written < JournalLine.MIN_SAMPLE_BYTES)) {
      return; // too small to measure the replica: the forecasts leave such a line out
    }
    long end = spec.ticker().read() - startNanos;
    BlockEvent e = new BlockEvent(0, 0, 0, written, written, 0, end, result);
    String dropped = result.equals("ok") ? null : result.substring(result.indexOf(':') + 1).trim();
    journal.add(
        new Journal(spec.journal(), id)
            .lines(List.of(e), List.of(new Journal.Outcome(src, dropped)), size, start));
  }

  private static void closeQuietly(ReadableByteChannel ch) {
    try {
      ch.close();
    } catch (IOException | RuntimeException e) {
      // stopping anyway
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // a leftover temporary file is overwritten next time
    }
  }
}
