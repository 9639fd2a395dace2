package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one download: probes, schedules, fetches with one thread per flow, verifies, renames. */
final class Engine {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final DownloadSpec spec;
  private final Ticker ticker;
  private final String id;
  private final PieceVerifier verifier;
  private volatile boolean cancelled;
  private volatile BlockScheduler scheduler;

  Engine(DownloadSpec spec) {
    this.spec = spec;
    this.ticker = spec.ticker();
    // a label for log lines and journal entries, not a secret (SecureRandom would load the
    // security providers before the first request)
    this.id =
        java.util.HexFormat.of()
            .toHexDigits(java.util.concurrent.ThreadLocalRandom.current().nextInt());
    this.verifier = new PieceVerifier(id, spec.pieces());
  }

  void cancel() {
    cancelled = true;
    BlockScheduler s = scheduler;
    if (s != null) {
      s.abort(new DownloadException("cancelled"));
    }
  }

  DownloadReport run() throws IOException {
    List<URI> uris = spec.sources();
    List<RangeSource> sources = new ArrayList<>();
    try {
      for (URI u : uris) {
        sources.add(spec.open(u));
      }
      return run(uris, sources);
    } finally {
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
    Prober.Probed probed = Prober.probe(id, uris, sources, spec::rate, ticker);
    long size = probed.size();
    List<Replica> replicas = probed.replicas();
    Map<URI, Validators> validators = probed.validators();
    if (spec.pieces() != null) {
      try {
        spec.pieces().checkSize(size);
      } catch (IllegalArgumentException e) {
        throw new DownloadException(e.getMessage());
      }
    }
    int conns = spec.options().connectionsPerSource();
    BlockPolicy policy = ((BlockPolicy.Spec) spec.scheme()).create();
    try (PartFile part = PartFile.open(spec.output(), size, validators, spec.resume())) {
      RangeSet kept = verifier.kept(part, size);
      long resumed = kept.total();
      if (resumed > 0) {
        LOG.info(
            "[{}] resuming {}: {} of {} bytes already verified", id, spec.output(), resumed, size);
      }
      BlockScheduler s = new BlockScheduler(size, replicas, conns, policy, ticker, kept);
      if (spec.pieces() != null) {
        s.usePieces(spec.pieces());
      }
      scheduler = s;
      if (cancelled) {
        s.abort(new DownloadException("cancelled"));
      }
      Instant start = spec.clock().instant();
      Journal j = spec.journal() == null ? null : new Journal(spec.journal(), id);
      JournalFeed journal = new JournalFeed(id, j, uris, size, start);
      Fetcher fetcher = new Fetcher(id, s, part::write);
      List<Thread> workers = new ArrayList<>();
      for (Flow f : s.flows()) {
        if (!f.replica.dropped) {
          workers.add(fetcher.start(f, sources.get(f.replica.index)));
        }
      }
      // set up once the fetches run: the first digest instance loads the security providers
      List<String> algos = new ArrayList<>();
      algos.add("sha-256");
      for (Checksum c : spec.checksums()) {
        if (!algos.contains(c.algorithm())) {
          algos.add(c.algorithm());
        }
      }
      PartFile.RunningDigests hasher = part.runningDigests(algos);
      new Supervisor(s, part, verifier, journal, spec.progress(), ticker).run(hasher, workers);
      long endNanos = ticker.read();
      // stop whatever still runs (slower duplicates, stalled reads) without penalising anyone
      fetcher.stopAll("cancelled: download finished");
      // workers still waiting for a response can write nothing more (every block is settled);
      // give them a moment to wind down, then go on: closing the sources aborts them. A complete
      // download does not wait: every byte is written (a block counts as written only after its
      // write returned), a worker still running writes nothing more, and its request is ended
      // here as the worker would end it, so the report and the journal have every request.
      boolean complete = s.complete();
      if (complete) {
        s.releaseAll("cancelled: download finished");
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
      long joinedNanos = ticker.read();
      verifier.verify(s, part);
      if (!s.complete()) {
        // what a later run resumes from; a complete download is renamed in a moment, and a crash
        // before that resumes from the last periodic checkpoint
        part.checkpoint(s.committed());
      }
      journal.append(s.events());
      Exception failure = s.failure();
      if (!s.complete()) {
        String why = failure == null ? "download incomplete" : OneLine.of(failure);
        throw new DownloadException(
            why
                + " ("
                + s.committedBytes()
                + " of "
                + size
                + " bytes kept in "
                + part.part
                + "; run again to resume)",
            failure);
      }
      double seconds = Math.max(1e-9, (endNanos - s.startNanos()) / 1e9);
      long tail = size - hasher.hashed();
      long hashFrom = ticker.read();
      hasher.advance(size);
      Map<String, String> digests = hasher.finish();
      long hashedNanos = ticker.read();
      for (Checksum c : spec.checksums()) {
        String got = digests.get(c.algorithm());
        if (!got.equals(c.hex())) {
          part.discard();
          throw new DownloadException(
              c.algorithm()
                  + " checksum mismatch: expected "
                  + c.hex()
                  + ", got "
                  + got
                  + "; a replica served corrupt data, "
                  + part.part
                  + " deleted");
        }
      }
      part.commit();
      LOG.info("[{}] {} complete: {} bytes in {} s", id, spec.output(), size, seconds);
      LOG.debug(
          "[{}] after the last byte: workers stopped in {} ms, pieces and journal {} ms, last {}"
              + " bytes hashed in {} ms, flushed and renamed in {} ms",
          id,
          (joinedNanos - endNanos) / 1_000_000,
          (hashFrom - joinedNanos) / 1_000_000,
          tail,
          (hashedNanos - hashFrom) / 1_000_000,
          (ticker.read() - hashedNanos) / 1_000_000);
      return report(s, uris, size, resumed, start, seconds, digests);
    }
  }

  private DownloadReport report(
      BlockScheduler s,
      List<URI> uris,
      long size,
      long resumed,
      Instant start,
      double seconds,
      Map<String, String> digests) {
    List<BlockEvent> events = s.events();
    List<ReplicaReport> reps = new ArrayList<>();
    for (Replica r : s.replicas()) {
      long bytes = 0;
      long received = 0;
      int blocks = 0;
      int failures = 0;
      List<BlockEvent> mine = new ArrayList<>();
      for (BlockEvent e : events) {
        if (e.replica() != r.index) {
          continue;
        }
        bytes += e.written();
        received += e.endOffset() - e.offset();
        if (e.written() > 0) {
          blocks++;
        }
        if (e.result().startsWith("error")) {
          failures++;
        }
        mine.add(e);
      }
      double busy = busyNanos(mine) / 1e9;
      reps.add(
          new ReplicaReport(
              r.uri,
              bytes,
              received,
              blocks,
              busy > 0 ? received / busy : 0,
              Math.max(0, seconds - busy),
              failures,
              r.dropped ? r.dropReason : null));
    }
    return new DownloadReport(
        id,
        spec.output(),
        spec.scheme().name(),
        size,
        resumed,
        start,
        seconds,
        (size - resumed) / seconds,
        digests,
        reps,
        events);
  }

  /** The time during which at least one of the requests was open: the union of their spans. */
  static long busyNanos(List<BlockEvent> requests) {
    List<BlockEvent> sorted = new ArrayList<>(requests);
    sorted.sort(Comparator.comparingLong(BlockEvent::startNanos));
    long total = 0;
    long curS = Long.MIN_VALUE;
    long curE = Long.MIN_VALUE;
    for (BlockEvent e : sorted) {
      if (e.startNanos() > curE) {
        if (curE > curS) {
          total += curE - curS;
        }
        curS = e.startNanos();
        curE = e.endNanos();
      } else {
        curE = Math.max(curE, e.endNanos());
      }
    }
    if (curE > curS) {
      total += curE - curS;
    }
    return total;
  }
}
