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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
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

  private final DatasetSpec spec;
  private final DatasetOutput output;
  private final DatasetState state;
  private final DatasetScheduler scheduler;
  private final SourcePool pool;

  DatasetFetch(
      DatasetSpec spec,
      DatasetOutput output,
      DatasetState state,
      DatasetScheduler scheduler,
      SourcePool pool) {
    this.spec = spec;
    this.output = output;
    this.state = state;
    this.scheduler = scheduler;
    this.pool = pool;
  }

  /** Thrown by writes so that local disk failures are told apart from replica failures. */
  private static final class LocalException extends IOException {
    LocalException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Runs the task to its outcome; never throws. */
  DatasetOutcome run(DatasetTask t, ByteBuffer buf) {
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
      return t.mode == DatasetTask.Mode.SINGLE ? single(t, f, target, buf) : download(t, f, target);
    } catch (RuntimeException e) {
      LOG.error("bug while fetching {}", DatasetNames.shown(f.path()), e);
      return DatasetOutcome.local(t.size, "internal error: " + OneLine.of(e));
    }
  }

  private DatasetOutcome single(DatasetTask t, DatasetFile f, Path target, ByteBuffer buf) {
    URI src = t.sources.get(0);
    DatasetServer server = t.servers.get(0);
    Path temp = target.resolveSibling(target.getFileName() + (t.duplicate ? ".dup.part" : ".part"));
    String id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    Instant start = spec.clock().instant();
    long startNanos = spec.ticker().read();
    long size = t.size;
    long got = 0;
    try (RangeSource rs = pool.open(src)) {
      Validators v = rs.probe();
      if (f.size() >= 0 && v.size() != f.size()) {
        return failed(t, src, "serves " + v.size() + " bytes, the dataset says " + f.size(), false);
      }
      if (t.size < 0
          && !t.duplicate
          && v.size() >= DatasetScheduler.COALLOCATE_MIN
          && f.sources().size() > 1) {
        // planned without a size and large: back to the scheduler, which may co-allocate it
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
      try (FileChannel out = create(temp)) {
        if (size > 0) {
          ReadableByteChannel ch = rs.open(0, size);
          t.onCancel(() -> closeQuietly(ch));
          try (ch) {
            got = copy(t, ch, out, digests, server, buf);
          } finally {
            t.onCancel(null);
          }
        }
        force(out);
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
      journal(id, src, size, start, startNanos, size, "ok");
      return DatasetOutcome.ok(size, d, Map.of(server.key, size));
    } catch (LocalException e) {
      deleteQuietly(temp);
      return DatasetOutcome.local(size, OneLine.of(e));
    } catch (IOException e) {
      deleteQuietly(temp);
      if (t.cancelled) {
        return DatasetOutcome.cancelled(size);
      }
      boolean retry = !(e instanceof SourceException se) || se.retryable();
      String why = OneLine.of(e);
      journal(id, src, Math.max(0, size), start, startNanos, got, "error: " + why);
      return failed(t, src, why, retry);
    }
  }

  private long copy(
      DatasetTask t,
      ReadableByteChannel ch,
      FileChannel out,
      StreamDigests digests,
      DatasetServer server,
      ByteBuffer buf)
      throws IOException {
    long got = 0;
    while (got < t.size) {
      if (t.cancelled) {
        throw new SourceException(t.sources.get(0), "cancelled", false, null);
      }
      buf.clear();
      int n = ch.read(buf);
      if (n < 0) {
        throw new SourceException.BodyLengthException(
            t.sources.get(0), "ended after " + got + " of " + t.size + " bytes", null);
      }
      if (n == 0) {
        continue;
      }
      if (t.firstByteNanos < 0) {
        t.firstByteNanos = spec.ticker().read();
      }
      buf.flip();
      digests.update(buf);
      try {
        while (buf.hasRemaining()) {
          out.write(buf);
        }
      } catch (IOException e) {
        throw new LocalException(e);
      }
      got += n;
      t.received = got;
      server.delivered.add(n);
    }
    return got;
  }

  private static FileChannel create(Path temp) throws LocalException {
    try {
      return FileChannel.open(
          temp,
          StandardOpenOption.CREATE,
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

  private void record(Path target, String path, long size, Map<String, String> d)
      throws IOException {
    long mtime = Files.getLastModifiedTime(target, LinkOption.NOFOLLOW_LINKS).toMillis();
    state.record(path, size, mtime, d);
  }

  private DatasetOutcome download(DatasetTask t, DatasetFile f, Path target) {
    // in the order the download keeps them (by predicted rate when every one has a rate), so
    // that its progress reports each server's rate at the same index
    List<Integer> order = new ArrayList<>();
    List<PredictedRate> rates = new ArrayList<>();
    for (int k = 0; k < t.sources.size(); k++) {
      order.add(k);
      double r = t.servers.get(k).rate(0);
      if (r > 0) {
        rates.add(new PredictedRate(t.sources.get(k), r));
      }
    }
    boolean rated = rates.size() == t.sources.size();
    if (rated) {
      order.sort((x, y) -> Double.compare(t.servers.get(y).rate(0), t.servers.get(x).rate(0)));
    }
    List<URI> sources = new ArrayList<>();
    List<DatasetServer> servers = new ArrayList<>();
    Map<URI, DatasetServer> byUri = new LinkedHashMap<>();
    for (int k : order) {
      sources.add(t.sources.get(k));
      servers.add(t.servers.get(k));
      byUri.put(t.sources.get(k), t.servers.get(k));
    }
    RateFeed feed = new RateFeed(t, servers, spec.ticker());
    Download d =
        Download.builder()
            .sources(sources)
            .output(target)
            .scheme(spec.scheme())
            .predictedRates(rated ? rates : List.of())
            .maxSources(8)
            .sourceOptions(spec.options())
            .checksums(f.checksums())
            .pieces(f.pieces())
            .journal(spec.journal())
            .resume(spec.resume())
            .clock(spec.clock())
            .progress(feed)
            .sourceFactory(pool::open)
            .build();
    t.onCancel(d::cancel);
    try {
      DownloadReport r = d.run();
      Map<String, Long> bytes = new LinkedHashMap<>();
      for (ReplicaReport rr : r.replicas()) {
        DatasetServer s = byUri.get(rr.uri());
        if (s != null && rr.bytes() > 0) {
          bytes.merge(s.key, rr.bytes(), Long::sum);
        }
        if (s != null) {
          feed.settle(s, rr.receivedBytes());
        }
      }
      record(target, f.path(), r.bytes(), r.digests());
      return DatasetOutcome.ok(r.bytes(), r.digests(), bytes);
    } catch (DownloadException e) {
      if (t.cancelled) {
        return DatasetOutcome.cancelled(t.size);
      }
      String why = OneLine.of(e);
      boolean mismatch = why.contains("checksum mismatch");
      List<DatasetOutcome.Failure> all = new ArrayList<>();
      for (URI u : t.sources) {
        all.add(new DatasetOutcome.Failure(u, why, !mismatch));
      }
      return DatasetOutcome.failed(t.size, mismatch ? List.of() : all, mismatch);
    } catch (IOException e) {
      return DatasetOutcome.local(t.size, OneLine.of(e));
    } finally {
      t.onCancel(null);
    }
  }

  /**
   * Turns a co-allocated download's progress into the task's bytes and its servers' rates (an
   * estimate from the replicas' rates while it runs, settled to the received bytes at the end).
   */
  private static final class RateFeed implements Consumer<Progress> {
    private final DatasetTask t;
    private final List<DatasetServer> servers;
    private final Ticker ticker;
    private final long[] added;
    private long last;

    RateFeed(DatasetTask t, List<DatasetServer> servers, Ticker ticker) {
      this.t = t;
      this.servers = servers;
      this.ticker = ticker;
      this.added = new long[servers.size()];
      this.last = ticker.read();
    }

    /** Counts the bytes the server really delivered in place of the estimate added so far. */
    synchronized void settle(DatasetServer s, long received) {
      int k = servers.indexOf(s);
      if (k >= 0) {
        s.delivered.add(received - added[k]);
        added[k] = received;
      }
    }

    @Override
    public synchronized void accept(Progress p) {
      long now = ticker.read();
      double dt = (now - last) / 1e9;
      last = now;
      t.size = p.size();
      t.received = p.bytesDone();
      List<Double> r = p.replicaRates();
      for (int k = 0; k < r.size() && k < servers.size(); k++) {
        long n = Math.round(r.get(k) * dt);
        servers.get(k).delivered.add(n);
        added[k] += n;
      }
    }
  }

  private DatasetOutcome failed(DatasetTask t, URI src, String why, boolean retry) {
    return DatasetOutcome.failed(
        t.size, List.of(new DatasetOutcome.Failure(src, src + ": " + why, retry)), false);
  }

  private void journal(
      String id, URI src, long size, Instant start, long startNanos, long written, String result) {
    if (spec.journal() == null) {
      return;
    }
    long end = spec.ticker().read() - startNanos;
    BlockEvent e = new BlockEvent(0, 0, 0, written, written, 0, end, result);
    try {
      String dropped =
          result.equals("ok") ? null : result.substring(result.indexOf(':') + 1).trim();
      new Journal(spec.journal(), id)
          .append(List.of(e), List.of(new Journal.Outcome(src, dropped)), size, start);
    } catch (IOException | RuntimeException ex) {
      LOG.warn("cannot append to the journal {}: {}", spec.journal(), ex.toString());
    }
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
