package org.braid.coalloc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
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
  private final boolean startOnChecksum = Boolean.getBoolean(START_ON_CHECKSUM);
  private volatile boolean cancelled;
  private volatile BlockScheduler scheduler;

  /**
   * The checksums the replicas publish and agree on, beyond the user's (set by the probe, and by
   * replicas that answer it after the download started).
   */
  private final List<Checksum> published = new CopyOnWriteArrayList<>();

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
    if (LOG.isDebugEnabled()) {
      // where the time before the first byte goes: the JVM's start and the command line first
      LOG.debug(
          "[{}] starting {} ms after the JVM started",
          id,
          ManagementFactory.getRuntimeMXBean().getUptime());
    }
    OutputFiles.check(spec.output());
    List<URI> uris = spec.sources();
    List<RangeSource> sources = new ArrayList<>();
    try {
      for (URI u : uris) {
        sources.add(spec.open(u));
      }
      StreamHistory.seed(id, spec.journal(), sources);
      try {
        return run(uris, sources, true);
      } catch (DownloadException e) {
        if (!(e.getCause() instanceof SizeVotes.Overruled o)) {
          throw e;
        }
        // started on the first answers' size, which most replicas then contradicted
        LOG.warn("[{}] {}: starting over with every replica's answer", id, o.getMessage());
        published.clear();
        return run(uris, sources, false);
      }
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

  /**
   * One attempt: with {@code mayStartEarly}, the default scheme starts once the answers in hand
   * settle the download ({@link Prober#settled}), else every answer is awaited.
   */
  private DownloadReport run(List<URI> uris, List<RangeSource> sources, boolean mayStartEarly)
      throws IOException {
    long probeStart = ticker.read();
    // resuming probes and waits for every answer: the control file is checked against them all,
    // and a first request would fetch bytes that may be kept
    boolean resuming = spec.resume() && Files.exists(PartFile.controlPath(spec.output()));
    // the probe folded into each replica's first data request
    boolean fold = !resuming;
    // and starts before every replica answered only with the default scheme, which shares the
    // file among whichever replicas are fetching (a fixed plan would wait for one still silent)
    boolean early = mayStartEarly && fold && spec.scheme().name().equals(Scheme.adaptive().name());
    List<ByteRange> first = fold ? foldRanges(sources.size()) : null;
    ProbeRound round =
        ProbeRound.start(id, sources, first, spec.options().probeTimeout(), spec.guards());
    List<Prober.Answer> answers = early ? awaitSettled(round) : round.awaitAll();
    Set<Integer> pending = new TreeSet<>();
    for (int i = 0; i < answers.size(); i++) {
      if (answers.get(i) == null) {
        pending.add(i);
      }
    }
    long answerNanos = round.medianAtLeast();
    int connections = early ? connections(spec.options(), uris, answerNanos) : chosen();
    LOG.debug(
        "[{}] probed {} replicas in {} ms{}, median answer {} ms, {} connection(s) each",
        id,
        sources.size() - pending.size(),
        (ticker.read() - probeStart) / 1_000_000,
        pending.isEmpty() ? "" : ", starting without " + pending.size() + " still to answer",
        answerNanos / 1_000_000,
        connections);
    Prober.Probed probed;
    try {
      probed = Prober.decide(id, uris, answers, spec::rate, spec.checksums(), spec.guards());
    } catch (DownloadException e) {
      answers.forEach(ProbeRound::discard);
      throw e;
    }
    published.addAll(probed.published());
    long size = probed.size();
    checkPieceCount(size);
    try (PartFile part = PartFile.open(spec.output(), size, probed.validators(), spec.resume())) {
      RangeSet kept = verifier.kept(part, size);
      long resumed = kept.total();
      if (resumed > 0) {
        LOG.info(
            "[{}] resuming {}: {} of {} bytes already verified", id, spec.output(), resumed, size);
      }
      BlockScheduler s =
          schedule(probed, kept, flowRanges(first, answers, connections), connections);
      if (fold && !spec.options().pipelining()) {
        s.firstLeasesCuttable();
      }
      Instant start = spec.clock().instant();
      Journal j = spec.journal() == null ? null : new Journal(spec.journal(), id);
      JournalFeed journal = new JournalFeed(id, j, size, start);
      Fetcher fetcher = new Fetcher(id, s, part::write, spec.options().pipelining(), spec.guards());
      List<Thread> workers = new CopyOnWriteArrayList<>();
      for (Flow f : s.flows()) {
        Prober.Answer a = answers.get(f.replica.index);
        boolean firstFlow = f.connection == 0 && a != null;
        if (f.replica.dropped) {
          if (firstFlow) {
            ProbeRound.discard(a);
          }
        } else if (a != null) {
          workers.add(
              fetcher.start(
                  f,
                  sources.get(f.replica.index),
                  firstFlow ? s.firstLease(f) : null,
                  firstFlow ? a.data() : null));
        }
      }
      Map<URI, Validators> accepted = new LinkedHashMap<>(probed.validators());
      // only a start on the checksum can be overruled: a majority or a declared size is final
      SizeVotes votes =
          early && startOnChecksum && spec.guards().expectedSize() < 0
              ? new SizeVotes(uris.size(), size, answers)
              : null;
      new LateAnswers(
              id,
              round,
              pending,
              s,
              fetcher,
              sources,
              workers,
              (i, a) -> judgeLate(uris.get(i), a, size, accepted, votes, s))
          .start();
      // set up once the fetches run: the first digest instance loads the security providers
      try (PrefixHasher hasher =
          new PrefixHasher(id, part.runningDigests(algorithms()), s::stablePrefix)) {
        fetcher.pace(hasher);
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
        if (!s.complete() && !(s.failure() instanceof SizeVotes.Overruled)) {
          // what a later run resumes from; a complete download is renamed in a moment, and a crash
          // before that resumes from the last periodic checkpoint
          lastCheckpoint(s, part);
        }
        journal.finish(s.events(), s.replicas());
        requireComplete(s, part);
        try {
          return finish(s, part, hasher, resumed, start, endNanos, joinedNanos);
        } catch (DownloadException e) {
          SizeVotes.Overruled o =
              votes != null && e.kind() == DownloadException.Kind.VERIFICATION
                  ? awaitMajority(round, size)
                  : null;
          if (o == null) {
            throw e;
          }
          // the first answers' size was wrong, and the whole file came before most replicas said so
          o.addSuppressed(e);
          throw new DownloadException(o.getMessage(), o, DownloadException.Kind.NETWORK);
        }
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

  /**
   * A median first answer (connecting and one round trip, see {@link ProbeRound#answerNanos}) at
   * least this long says the replicas are distant: round trips of about 40 ms or more. A replica
   * still to answer counts with the time its request has waited ({@link ProbeRound#medianAtLeast}),
   * so that this is known this long after the requests left at the latest.
   */
  static final long FAR_ANSWER_NANOS = 80_000_000L;

  /**
   * The system property that lets the user's whole-file checksum start the download on the first
   * answer ({@link Prober#settled}) once the answers and the waits say whether the replicas are
   * distant ({@link ProbeRound#distant}: at most {@link #FAR_ANSWER_NANOS} after the requests
   * left), which chooses the connections per replica. Off unless {@code true} ({@code
   * BRAID_JAVA_OPTS=-Dbraid.startOnChecksum=true}): on by default for part of session 14, it gained
   * about 0.1 s on a 10 MB file at 50-200 ms but lost 1.4-1.8 s on 200 MB with the speed swap
   * (scenario 4w) at 50-200 ms (docs/download.md, "Start-up time", session 14).
   */
  static final String START_ON_CHECKSUM = "braid.startOnChecksum";

  /** Connections to each distant HTTP replica when the user chose no count. */
  static final int FAR_CONNECTIONS = 2;

  private int chosen() {
    return spec.options().connectionsPerSource();
  }

  /**
   * Connections per replica: the user's count, else {@link #FAR_CONNECTIONS} when every replica is
   * an HTTP(S) or WebDAV one and the median first answer took {@code answerNanos} of {@link
   * #FAR_ANSWER_NANOS} or more, else the default. One TCP connection at a round trip of 100 ms or
   * more fills its link slowly after a loss, a rate change or a new connection (its window grows by
   * about a segment per round trip in congestion avoidance, and the testbed's queues are shorter
   * than the bandwidth-delay product); two share that ramp and each request's round trip. Measured
   * on the testbed and in {@link WanSimulator}-based tests (docs/download.md).
   */
  static int connections(SourceOptions o, List<URI> uris, long answerNanos) {
    if (o.connectionsChosen() || answerNanos < FAR_ANSWER_NANOS) {
      return o.connectionsPerSource();
    }
    for (URI u : uris) {
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!List.of("http", "https", "dav", "davs").contains(scheme) || loopback(u)) {
        return o.connectionsPerSource();
      }
    }
    return Math.max(o.connectionsPerSource(), FAR_CONNECTIONS);
  }

  /**
   * Whether the URL names this machine: never distant, however long a cold JVM took for its first
   * answer (class loading on a loaded machine took more than 80 ms in the tests).
   */
  static boolean loopback(URI u) {
    String h = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
    return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
  }

  /** Bytes asked for by each replica's first request, when the probe is folded into it. */
  static final long FIRST_REQUEST = 1 << 20;

  /**
   * The range of each replica's first request, sent before the size is known: replica {@code i}
   * asks for the {@code i}-th {@link #FIRST_REQUEST} bytes, so that the first requests do not
   * overlap (those past the end of a smaller file bring only the size).
   */
  private static List<ByteRange> foldRanges(int replicas) {
    List<ByteRange> out = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      out.add(new ByteRange(i * FIRST_REQUEST, (i + 1) * FIRST_REQUEST));
    }
    return out;
  }

  /**
   * By flow id, the range each flow's first request asked for when it was sent before the size was
   * known: the first flow of a replica whose answer brought the data, or that is still to answer.
   */
  private static List<ByteRange> flowRanges(
      List<ByteRange> first, List<Prober.Answer> answers, int n) {
    if (first == null) {
      return null;
    }
    List<ByteRange> out = new ArrayList<>();
    for (int i = 0; i < first.size(); i++) {
      Prober.Answer a = answers.get(i);
      boolean data = a == null || a.data() != null;
      for (int c = 0; c < n; c++) {
        out.add(c == 0 && data ? first.get(i) : null);
      }
    }
    return out;
  }

  /**
   * The answers once they settle the download ({@link Prober#settled}) or all are in; null for a
   * replica still to answer. With the user's checksum one answer settles it once the replicas'
   * distance is known ({@link ProbeRound#distant}), which chooses the connections per replica.
   */
  private List<Prober.Answer> awaitSettled(ProbeRound round) {
    while (true) {
      List<Prober.Answer> now = round.snapshot();
      Boolean far = round.distant(FAR_ANSWER_NANOS);
      if (!now.contains(null)
          || Prober.settled(now, spec.guards(), spec.checksums(), startOnChecksum && far != null)) {
        return now;
      }
      // no answer may come before the distance is known: wake up then
      long wait = far == null ? Math.max(1, round.untilDistant(FAR_ANSWER_NANOS)) : Long.MAX_VALUE;
      if (round.next(wait) < 0 && (round.expired() || Thread.currentThread().isInterrupted())) {
        return round.awaitAll();
      }
    }
  }

  /** How often {@link #awaitMajority} looks at the answers. */
  private static final long MAJORITY_POLL_MILLIS = 5;

  /**
   * After a download that started on the first answers' {@code size} failed its checksum: waits
   * until more than half of all the replicas report one size, every replica answered, or the
   * probe's deadline passed; the {@link SizeVotes.Overruled} failure when that majority reports
   * another size (the download then starts over with every answer, as when the majority comes
   * during the transfer), else null (the checksum failure stands).
   */
  static SizeVotes.Overruled awaitMajority(ProbeRound round, long size) {
    while (true) {
      List<Prober.Answer> now = round.snapshot();
      SizeVotes votes = new SizeVotes(now.size(), size, List.of());
      int agree = 0;
      for (Prober.Answer a : now) {
        SizeVotes.Overruled o = votes.add(a);
        if (o != null) {
          return o;
        }
        if (a != null && a.validators() != null && a.validators().size() == size) {
          agree++;
        }
      }
      if (2 * agree > now.size() || !now.contains(null) || round.expired()) {
        return null;
      }
      try {
        Thread.sleep(MAJORITY_POLL_MILLIS);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }

  /**
   * Judges a late answer; one that joins is added to {@code accepted}. With {@code votes} (or
   * null), one that makes a majority for another size stops the download ({@link SizeVotes}), which
   * then starts over.
   */
  private String judgeLate(
      URI u,
      Prober.Answer a,
      long size,
      Map<URI, Validators> accepted,
      SizeVotes votes,
      BlockScheduler s) {
    SizeVotes.Overruled overruled = votes == null ? null : votes.add(a);
    if (overruled != null) {
      s.abort(overruled);
      return overruled.getMessage();
    }
    synchronized (accepted) {
      List<Checksum> more = new ArrayList<>(published);
      String why = Prober.judgeLate(u, a, size, spec.guards(), spec.checksums(), accepted, more);
      if (why == null) {
        accepted.put(u, a.validators());
        for (Checksum c : more) {
          if (!published.contains(c)) {
            published.add(c);
          }
        }
      }
      return why;
    }
  }

  private BlockScheduler schedule(
      Prober.Probed probed, RangeSet kept, List<ByteRange> first, int connections) {
    BlockScheduler s =
        new BlockScheduler(
            probed.size(),
            probed.replicas(),
            connections,
            ((BlockPolicy.Spec) spec.scheme()).create(CpuBudget.process()),
            ticker,
            kept,
            spec.pieces(),
            first,
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
