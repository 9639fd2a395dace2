package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one download: the {@link Prober} asks the replicas, a {@link BlockScheduler} divides the
 * file, a {@link Fetcher} thread per flow fetches into the {@link PartFile}, the {@link Supervisor}
 * verifies, hashes, checkpoints and reports progress meanwhile; then the digests are checked and
 * the file renamed. Every duration comes from the spec's {@link Ticker}. One engine per run.
 */
final class Engine {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
  private static final String FINISHED = "cancelled: download finished";

  private final DownloadSpec spec;
  private final Ticker ticker;
  private final String id;
  private final PieceVerifier verifier;
  private volatile boolean cancelled;
  private volatile BlockScheduler scheduler;

  /** The checksums the replicas publish and agree on, beyond the user's (set by the probe). */
  private List<Checksum> published = List.of();

  Engine(DownloadSpec spec) {
    this.spec = spec;
    this.ticker = spec.ticker();
    // a label for log lines and journal entries, not a secret (SecureRandom would load the
    // security providers before the first request)
    this.id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    this.verifier = new PieceVerifier(id, spec.pieces());
  }

  void cancel() {
    cancelled = true;
    BlockScheduler s = scheduler;
    if (s != null) {
      s.abort(new DownloadException("cancelled", null, DownloadException.Kind.CANCELLED));
    }
  }

  DownloadReport run() throws IOException {
    OutputFiles.check(spec.output());
    List<URI> uris = spec.sources();
    List<RangeSource> sources = new ArrayList<>();
    try {
      for (URI u : uris) {
        sources.add(spec.open(u));
      }
      StreamHistory.seed(id, spec.journal(), sources);
      return run(uris, sources);
    } finally {
      verifier.close();
      for (RangeSource s : sources) {
        try {
          s.close();
        } catch (IOException e) {
          LOG.debug("[{}] closing {}: {}", id, s.uri(), e.toString());
        }
      }
    }
  }

  private DownloadReport run(List<URI> uris, List<RangeSource> sources) throws IOException {
    Prober.Probed probed =
        Prober.probe(
            id,
            uris,
            sources,
            spec::rate,
            spec.checksums(),
            ticker,
            spec.options().probeTimeout(),
            spec.guards());
    published = probed.published();
    long size = probed.size();
    checkPieceCount(size);
    try (PartFile part = PartFile.open(spec.output(), size, probed.validators(), spec.resume())) {
      RangeSet kept = verifier.kept(part, size);
      long resumed = kept.total();
      if (resumed > 0) {
        LOG.info(
            "[{}] resuming {}: {} of {} bytes already verified", id, spec.output(), resumed, size);
      }
      BlockScheduler s = schedule(probed, kept);
      Instant start = spec.clock().instant();
      Journal j = spec.journal() == null ? null : new Journal(spec.journal(), id);
      JournalFeed journal = new JournalFeed(id, j, size, start);
      Fetcher fetcher = new Fetcher(id, s, part::write, spec.options().pipelining(), spec.guards());
      List<Thread> workers = new ArrayList<>();
      for (Flow f : s.flows()) {
        if (!f.replica.dropped) {
          workers.add(fetcher.start(f, sources.get(f.replica.index)));
        }
      }
      // set up once the fetches run: the first digest instance loads the security providers
      try (PrefixHasher hasher =
          new PrefixHasher(id, part.runningDigests(algorithms()), s::stablePrefix)) {
        try {
          new Supervisor(s, part, verifier, spec.progress(), ticker).run(workers);
        } catch (IOException e) {
          // a checkpoint or a read-back failed (a full disk): stop, keeping the last checkpoint
          s.abort(
              new DownloadException(
                  "cannot write " + part.ctl + ": " + PlainErrors.of(e),
                  e,
                  DownloadException.Kind.DISK));
        }
        long endNanos = ticker.read();
        windDown(s, fetcher, workers);
        long joinedNanos = ticker.read();
        verifier.verifyAll(s, part);
        if (!s.complete()) {
          // what a later run resumes from; a complete download is renamed in a moment, and a crash
          // before that resumes from the last periodic checkpoint
          lastCheckpoint(s, part);
        }
        journal.finish(s.events(), s.replicas());
        requireComplete(s, part);
        return finish(s, part, hasher, resumed, start, endNanos, joinedNanos);
      }
    }
  }

  private void checkPieceCount(long size) throws DownloadException {
    if (spec.pieces() != null) {
      try {
        spec.pieces().checkSize(size);
      } catch (IllegalArgumentException e) {
        throw new DownloadException(e.getMessage(), null, DownloadException.Kind.VERIFICATION);
      }
    }
  }

  private BlockScheduler schedule(Prober.Probed probed, RangeSet kept) {
    BlockScheduler s =
        new BlockScheduler(
            probed.size(),
            probed.replicas(),
            spec.options().connectionsPerSource(),
            ((BlockPolicy.Spec) spec.scheme()).create(),
            ticker,
            kept,
            spec.pieces(),
            null,
            spec.guards());
    scheduler = s;
    if (cancelled) {
      s.abort(new DownloadException("cancelled", null, DownloadException.Kind.CANCELLED));
    }
    return s;
  }

  /** SHA-256 and the algorithm of every expected checksum, each once. */
  private List<String> algorithms() {
    List<String> algos = new ArrayList<>();
    algos.add("sha-256");
    for (Checksum c : expected()) {
      if (!algos.contains(c.algorithm())) {
        algos.add(c.algorithm());
      }
    }
    return algos;
  }

  /**
   * Stops whatever still runs (slower duplicates, stalled reads) without penalising anyone. Workers
   * still waiting for a response can write nothing more (every block is settled); they get a moment
   * to wind down, then the download goes on: closing the sources aborts them. A complete download
   * does not wait: every byte is written (a block counts as written only after its write returned),
   * a worker still running writes nothing more, and its request is ended here as the worker would
   * end it, so the report and the journal have every request.
   */
  private void windDown(BlockScheduler s, Fetcher fetcher, List<Thread> workers) {
    fetcher.stopAll(FINISHED);
    boolean complete = s.complete();
    if (complete) {
      s.releaseAll(FINISHED);
    }
    long joinDeadline = ticker.read() + (complete ? 0 : TimeUnit.SECONDS.toNanos(2));
    for (Thread t : workers) {
      long left = joinDeadline - ticker.read();
      if (left <= 0) {
        break;
      }
      try {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        break;
      }
    }
  }

  /**
   * Records what a later run resumes from. When the download already failed (a full disk, say) and
   * even that cannot be written, the previous checkpoint stays and the first failure is reported.
   */
  private void lastCheckpoint(BlockScheduler s, PartFile part) throws IOException {
    try {
      part.checkpoint(s.committed());
    } catch (IOException e) {
      Exception failure = s.failure();
      if (failure == null) {
        throw e;
      }
      failure.addSuppressed(e);
      LOG.debug("[{}] last checkpoint not written: {}", id, e.toString());
    }
  }

  private void requireComplete(BlockScheduler s, PartFile part) throws DownloadException {
    Exception failure = s.failure();
    if (!s.complete()) {
      if (failure instanceof RuntimeException bug) {
        throw new IllegalStateException("internal error: " + OneLine.of(bug), bug);
      }
      String why = failure == null ? "download incomplete" : OneLine.of(failure);
      DownloadException.Kind kind =
          failure instanceof DownloadException d
              ? d.kind()
              : failure instanceof IOException
                  ? DownloadException.Kind.DISK
                  : DownloadException.Kind.NETWORK;
      String kept = Files.exists(part.ctl) ? "; run again to resume" : "";
      throw new DownloadException(
          why
              + " ("
              + s.committedBytes()
              + " of "
              + s.size()
              + " bytes kept in "
              + part.part
              + kept
              + ")",
          failure,
          kind);
    }
  }

  /**
   * Hashes what is left while the data is flushed to disk, checks the checksums, renames the file
   * and reports.
   */
  private DownloadReport finish(
      BlockScheduler s,
      PartFile part,
      PrefixHasher hasher,
      long resumed,
      Instant start,
      long endNanos,
      long joinedNanos)
      throws IOException {
    long size = s.size();
    double seconds = Math.max(1e-9, (endNanos - s.startNanos()) / 1e9);
    long tail = size - hasher.hashed();
    long hashFrom = ticker.read();
    // durability needs the data on disk before the final name appears: flush it now, while the
    // hasher reads the rest on its own thread, so that the two waits overlap
    part.flush();
    long flushedNanos = ticker.read();
    Map<String, String> digests = hasher.finish(size);
    long hashedNanos = ticker.read();
    checkChecksums(digests, part);
    part.commit();
    LOG.info("[{}] {} complete: {} bytes in {} s", id, spec.output(), size, seconds);
    LOG.debug(
        "[{}] after the last byte: workers stopped in {} ms, pieces and journal {} ms, data"
            + " flushed in {} ms while the last {} bytes were hashed, hashing done {} ms later,"
            + " renamed in {} ms",
        id,
        (joinedNanos - endNanos) / 1_000_000,
        (hashFrom - joinedNanos) / 1_000_000,
        (flushedNanos - hashFrom) / 1_000_000,
        tail,
        (hashedNanos - flushedNanos) / 1_000_000,
        (ticker.read() - hashedNanos) / 1_000_000);
    return ReportBuilder.build(id, spec, s, resumed, start, seconds, digests);
  }

  /** The user's checksums, then those the replicas publish (of other algorithms). */
  private List<Checksum> expected() {
    List<Checksum> all = new ArrayList<>(spec.checksums());
    all.addAll(published);
    return all;
  }

  private void checkChecksums(Map<String, String> digests, PartFile part) throws IOException {
    for (Checksum c : expected()) {
      String got = digests.get(c.algorithm());
      if (!got.equals(c.hex())) {
        part.discard();
        boolean theirs = published.contains(c);
        throw new DownloadException(
            c.algorithm()
                + " checksum mismatch: "
                + (theirs ? "the replicas publish " : "expected ")
                + c.hex()
                + ", got "
                + got
                + (theirs
                    ? "; a replica that publishes no checksum holds another version or served"
                        + " corrupt data, "
                    : "; a replica served corrupt data, ")
                + part.part
                + " deleted",
            null,
            DownloadException.Kind.VERIFICATION);
      }
    }
  }
}
