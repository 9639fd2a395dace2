package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one dataset job: opens the output directory and its record of verified files, skips the
 * files verified by an earlier run, starts one worker thread per file in flight (each asking the
 * {@link DatasetScheduler} for a task and running it with {@link DatasetFetch}), and watches from
 * the caller's thread (measured rates, progress) until every file is done; then reports.
 */
final class DatasetJob {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetJob.class);
  private static final long PASS_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /**
   * When the job renders a made-up report ({@link DatasetReports#warmUp}), if it runs that long.
   */
  static final long WARM_REPORT_NANOS = TimeUnit.SECONDS.toNanos(2);

  private boolean reportWarm;

  private final DatasetSpec spec;
  private final String id;
  private final Ticker ticker;
  private final DatasetScheduler scheduler;
  private final Map<String, Double> predicted;
  private volatile String cancelled;
  private final List<Thread> workers = new ArrayList<>();
  private final DatasetMilestones milestones;
  private DatasetFetch fetch;

  DatasetJob(DatasetSpec spec, DatasetMilestones milestones) {
    this.spec = spec;
    this.milestones = milestones;
    this.ticker = spec.ticker();
    this.id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    this.predicted = predicted(spec);
    this.scheduler = new DatasetScheduler(id, spec, predicted);
  }

  /** Predicted rates by server key. */
  private static Map<String, Double> predicted(DatasetSpec spec) {
    Map<String, Double> m = new HashMap<>();
    for (PredictedRate r : spec.rates()) {
      m.merge(DatasetServer.key(r.uri(), "-"), r.bytesPerSecond(), Math::max);
    }
    return m;
  }

  void cancel(String why) {
    cancelled = why;
    scheduler.stop(why);
  }

  DatasetReport run() throws IOException {
    Instant start = spec.clock().instant();
    long t0 = ticker.read();
    milestones.mark("job");
    DatasetOutput output = DatasetOutput.open(spec.directory());
    try (DatasetState state = DatasetState.open(output.dir, spec.resume());
        SourcePool pool =
            new SourcePool(
                spec.sourceFactory(),
                spec.options(),
                threads(maxWorkers(spec)) * (spec.options().connectionsPerSource() + 1));
        DatasetJournal journal =
            spec.journal() == null ? null : new DatasetJournal(spec.journal(), ticker)) {
      fetch = new DatasetFetch(spec, output, state, scheduler, pool, journal);
      fetch.milestones = milestones;
      if (FIRST_WAVE) {
        fetch.onFirstByte = this::spawnAll;
      }
      Thread reader = null;
      if (spec.feed() == null) {
        prepared(prepareAndStart(output, state), output);
      } else {
        // the feed's files are read and prepared on a thread of their own while this one
        // supervises the transfers that already run (measured rates, progress, the plan)
        scheduler.preparing(true);
        reading = true;
        reader = new Thread(() -> readFeed(output, state), "braid-" + id + "-list");
        reader.setDaemon(true);
        reader.start();
      }
      supervise(t0);
      if (reader != null) {
        join(reader);
      }
      for (Thread w : workerThreads()) {
        join(w);
      }
      if (feedFailure instanceof IOException e) {
        throw e;
      } else if (feedFailure instanceof RuntimeException e) {
        throw e;
      }
      if (spec.progress() != null) {
        spec.progress().accept(scheduler.progress(0, (ticker.read() - t0) / 1e9));
      }
    }
    return DatasetReports.build(id, spec, scheduler, output.dir, start, (ticker.read() - t0) / 1e9);
  }

  private void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancel("interrupted");
    }
  }

  private void prepared(int skipped, DatasetOutput output) {
    milestones.mark("prepared");
    LOG.info(
        "[{}] {} files into {}: {} verified earlier, {} at once",
        id,
        spec.files().size(),
        output.dir,
        skipped,
        spec.concurrency());
  }

  /** What stopped the reading of a feed's files (thrown by {@link #run}), or null. */
  private volatile Exception feedFailure;

  /** Whether a feed's files are still being read (the tenths of the files are not known yet). */
  private volatile boolean reading;

  /** Reads and prepares the feed's files (the reader thread). */
  private void readFeed(DatasetOutput output, DatasetState state) {
    try {
      prepared(prepareAndStart(output, state), output);
    } catch (IOException | RuntimeException e) {
      feedFailure = e;
    } finally {
      reading = false;
    }
  }

  /**
   * Files queued before the workers start: the first requests go out while the rest of a long
   * dataset is still checked against the output directory.
   */
  static final int HEAD_START = 8;

  /**
   * Prepares the files ({@link #prepare}) and starts the workers as soon as the first {@link
   * #HEAD_START} files are queued; returns how many files were skipped. If preparing fails, the
   * workers started are stopped before the failure is thrown.
   */
  private int prepareAndStart(DatasetOutput output, DatasetState state) throws IOException {
    scheduler.preparing(true);
    try {
      return prepare(output, state);
    } catch (IOException | RuntimeException e) {
      String why = "cannot prepare the files: " + OneLine.of(e);
      // bad input from a feed: the caller reports it (one line), the job only stops
      cancelled = why;
      scheduler.stop(
          why, /* tell= */ !(spec.feed() != null && e instanceof IllegalArgumentException));
      joinWorkers();
      throw e;
    } finally {
      scheduler.preparing(false);
      start();
    }
  }

  private void joinWorkers() {
    for (Thread w : workerThreads()) {
      try {
        w.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private List<Thread> workerThreads() {
    synchronized (workers) {
      return List.copyOf(workers);
    }
  }

  /**
   * Worker threads beyond the concurrency, at most: a task whose body has all arrived no longer
   * counts as fetching ({@link DatasetScheduler#released}), and a spare worker sends the next
   * request while its worker verifies, flushes and renames the file.
   */
  static final int SPARE_WORKERS = 4;

  /** The worker threads for {@code concurrency} files fetched at once, spares included. */
  static int threads(int concurrency) {
    return concurrency + Math.min(SPARE_WORKERS, concurrency);
  }

  /** Whether the first requests go out one per server before the others (A/B switch). */
  static final boolean FIRST_WAVE = !"false".equals(System.getProperty("braid.firstWave"));

  /** The most time the other workers wait for the first wave's first byte. */
  static final long FIRST_WAVE_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

  private volatile boolean all = !FIRST_WAVE;
  private volatile long firstWaveNanos = -1;

  /**
   * Starts the workers: with the first wave, one per server known (the others once a first body
   * byte arrives, a task ends or {@link #FIRST_WAVE_NANOS} passed), so that on a cold JVM's two
   * busy cores every server's first request gets the CPU before the rest of the job's.
   */
  private void start() {
    if (all) {
      spawn(spec.concurrency());
      return;
    }
    synchronized (workers) {
      if (firstWaveNanos < 0) {
        firstWaveNanos = ticker.read();
      }
      int n = Math.min(spec.concurrency(), Math.max(1, scheduler.servers().size()));
      while (workers.size() < n) {
        spawnOne();
      }
    }
  }

  private void spawnAll() {
    if (!all) {
      all = true;
      spawn(scheduler.concurrency());
    }
  }

  private void spawnOne() {
    Thread w = new Thread(() -> work(fetch), "braid-" + id + "-w" + workers.size());
    w.setDaemon(true);
    workers.add(w);
    w.start();
  }

  /**
   * Starts worker threads until there are enough for {@code n} files at once ({@link #threads};
   * from the job's thread or the reader of its feed).
   */
  private void spawn(int n) {
    synchronized (workers) {
      while (workers.size() < threads(n)) {
        spawnOne();
      }
    }
  }

  private void work(DatasetFetch fetch) {
    ByteBuffer buf = ByteBuffer.allocate(Fetcher.BUFFER);
    while (true) {
      DatasetTask t;
      try {
        t = scheduler.next();
      } catch (InterruptedException e) {
        return;
      }
      if (t == null) {
        return;
      }
      milestones.firstRequest();
      scheduler.finished(t, fetch.run(t, buf));
      if (!all) {
        spawnAll();
      }
    }
  }

  /** Watches the job: samples the servers' rates and reports progress until it is done. */
  private void supervise(long t0) {
    CompletableFuture<DatasetOrder> plan =
        spec.arriving() == null ? null : spec.arriving().toCompletableFuture();
    long lastBytes = 0;
    long lastTime = t0;
    double rate = 0;
    long lastProgress = t0;
    while (!scheduler.done()) {
      try {
        scheduler.awaitChange(PASS_NANOS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        cancel("interrupted");
      }
      if (plan != null && plan.isDone()) {
        apply(plan);
        plan = null;
      }
      if (!reading) {
        milestones.filesDone(spec.files().size() - scheduler.open(), spec.files().size());
      }
      long now = ticker.read();
      long wave = firstWaveNanos;
      if (!all && wave >= 0 && now - wave >= FIRST_WAVE_NANOS) {
        spawnAll();
      }
      scheduler.sample(now);
      if (!reportWarm && now - t0 >= WARM_REPORT_NANOS) {
        reportWarm = true;
        DatasetReports.warmUp(); // its code compiled now, not as the process ends
      }
      if (spec.progress() != null && now - lastProgress >= PASS_NANOS) {
        DatasetProgress p = scheduler.progress(rate, (now - t0) / 1e9);
        double dt = (now - lastTime) / 1e9;
        if (dt >= 0.5) {
          double r = Math.max(0, p.bytesDone() - lastBytes) / dt;
          rate = rate == 0 ? r : rate + (1 - Math.exp(-dt / 2.0)) * (r - rate);
          lastBytes = p.bytesDone();
          lastTime = now;
        }
        spec.progress().accept(p);
        lastProgress = now;
      }
    }
    milestones.filesDone(spec.files().size() - scheduler.open(), spec.files().size());
  }

  /** Applies the batch plan that arrived, or logs why there is none. */
  private void apply(CompletableFuture<DatasetOrder> plan) {
    try {
      DatasetOrder o = plan.getNow(null);
      if (o != null) {
        scheduler.replan(o);
        milestones.mark("plan");
        spawn(scheduler.concurrency());
      }
    } catch (CompletionException | CancellationException e) {
      LOG.warn("[{}] no batch plan: {}", id, OneLine.of(e.getCause() == null ? e : e.getCause()));
    }
  }

  /**
   * Marks the files that cannot be written (conflicting names) as failed and those verified by an
   * earlier run as skipped; queues the others in order, reading a feed's files as it goes. Returns
   * how many were skipped.
   */
  private int prepare(DatasetOutput output, DatasetState state) throws IOException {
    Map<Path, Boolean> dirs = new HashMap<>();
    int[] counts = new int[2]; // skipped, queued
    if (spec.feed() == null) {
      Map<Integer, String> conflicts = DatasetOutput.conflicts(spec.files());
      for (int i = 0; i < spec.files().size(); i++) {
        prepare(i, conflicts.get(i), output, state, dirs, counts);
      }
      return counts[0];
    }
    DatasetClaims claims = new DatasetClaims();
    DatasetFileList list = spec.fileList();
    for (int i = 0; cancelled == null; i++) {
      if (i == list.size()) {
        start(); // the files queued so far go out while the feed is read
        DatasetFile f = spec.feed().next();
        if (f == null) {
          break;
        }
        list.append(f);
        scheduler.arrived(i);
      }
      prepare(i, claims.claim(list.get(i).path()), output, state, dirs, counts);
    }
    return counts[0];
  }

  /** Prepares file {@code i}, which cannot be written when {@code conflict} is not null. */
  private void prepare(
      int i,
      String conflict,
      DatasetOutput output,
      DatasetState state,
      Map<Path, Boolean> dirs,
      int[] counts)
      throws IOException {
    DatasetFile f = spec.files().get(i);
    if (conflict != null) {
      scheduler.prepared(i, DatasetFileState.FAILED, "cannot write it: " + conflict);
      return;
    }
    if (spec.resume() && !output.parentExists(f.path(), dirs)) {
      counts[1] = queue(i, counts[1]); // nothing of it on disk yet: no look at each file
      return;
    }
    if (spec.resume() && verified(output, state, f, i)) {
      counts[0]++;
      return;
    }
    if (spec.resume()) {
      Path target = output.target(f.path());
      Path ctl = target.resolveSibling(target.getFileName() + ".braid-ctl");
      scheduler.state(i).resumable = Files.isRegularFile(ctl, LinkOption.NOFOLLOW_LINKS);
    }
    counts[1] = queue(i, counts[1]);
  }

  /**
   * Queues file {@code i}, the {@code queued}th; starts the workers at the {@link #HEAD_START}th.
   */
  private int queue(int i, int queued) {
    scheduler.prepared(i, null, null);
    if (queued + 1 == HEAD_START) {
      start();
    }
    return queued + 1;
  }

  /** Whether the file is in place and verified: recorded unchanged, or hashed to its checksums. */
  private boolean verified(DatasetOutput output, DatasetState state, DatasetFile f, int i)
      throws IOException {
    BasicFileAttributes a = output.existing(f.path());
    if (a == null || (f.size() >= 0 && a.size() != f.size())) {
      return false;
    }
    DatasetState.Done d = state.get(f.path());
    boolean recorded =
        d != null && d.size() == a.size() && d.mtime() == a.lastModifiedTime().toMillis();
    Map<String, String> digests = recorded ? d.digests() : Map.of();
    List<Checksum> unknown = new ArrayList<>();
    for (Checksum c : f.checksums()) {
      String got = digests.get(c.algorithm());
      if (got == null) {
        unknown.add(c);
      } else if (!got.equals(c.hex())) {
        return false;
      }
    }
    if (!recorded && f.checksums().isEmpty()) {
      return false; // nothing to verify it by: fetch it again
    }
    if (!unknown.isEmpty() || !recorded) {
      Map<String, String> hashed = hash(output.target(f.path()), f.checksums());
      if (StreamDigests.mismatch(hashed, f.checksums()) != null) {
        return false;
      }
      state.record(f.path(), a.size(), a.lastModifiedTime().toMillis(), hashed);
      digests = hashed;
    }
    DatasetFileState st = scheduler.state(i);
    st.size = a.size();
    st.sha256 = digests.get("sha-256");
    scheduler.prepared(i, DatasetFileState.SKIPPED, null);
    return true;
  }

  private static Map<String, String> hash(Path p, List<Checksum> sums) throws IOException {
    StreamDigests d = new StreamDigests(StreamDigests.algorithms(sums));
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        d.update(ByteBuffer.wrap(buf, 0, n));
      }
    }
    return d.finish();
  }

  /**
   * The most worker threads the job may need: its concurrency, or as many as a plan arriving late
   * may call for ({@link #defaultConcurrency}: at most 64) when it chooses it.
   */
  static int maxWorkers(DatasetSpec spec) {
    if (!spec.autoConcurrency() || spec.arriving() == null) {
      return spec.concurrency();
    }
    // a feed's files are not all known yet: as many as the most a plan may call for
    return Math.max(
        spec.concurrency(), spec.feed() != null ? 64 : Math.min(64, spec.files().size()));
  }

  /** See {@link Dataset#defaultConcurrency}. */
  static int defaultConcurrency(List<DatasetFile> files, List<PredictedRate> rates) {
    long median = medianSize(files);
    Map<String, Double> byServer = new HashMap<>();
    for (PredictedRate r : rates) {
      byServer.merge(DatasetServer.key(r.uri(), "-"), r.bytesPerSecond(), Math::max);
    }
    Set<String> servers = new HashSet<>();
    int step = Math.max(1, files.size() / 2000);
    for (int i = 0; i < files.size(); i += step) {
      DatasetFile f = files.get(i);
      for (URI u : f.sources()) {
        servers.add(DatasetServer.key(u, f.path()));
      }
    }
    int sum = 0;
    for (String s : servers) {
      Double b = byServer.get(s);
      if (median <= 0) {
        sum += 4;
      } else if (b == null && s.startsWith("file:")) {
        sum += 4; // a local path: no request latency to hide
      } else if (b == null) {
        // no forecast: as for a server at UNKNOWN_RATE, and never fewer than 4
        sum += Math.max(4, perServer(UNKNOWN_RATE, median));
      } else {
        // a forecast raises the count, never lowers it below the assumption: a rate learned from
        // small files is bound by request latency at the concurrency used then, not the server's
        sum += perServer(Math.max(b, UNKNOWN_RATE), median);
      }
    }
    return Math.max(1, Math.min(files.size(), Math.max(4, Math.min(64, sum))));
  }

  /**
   * The rate assumed for a server without a forecast when choosing the concurrency: 10 MB/s (80
   * Mbit/s, a modest lab or WAN path), so that a dataset of small files keeps enough requests in
   * flight from the start.
   */
  static final double UNKNOWN_RATE = 10e6;

  /** Files in flight that keep {@code rate} busy through a 50 ms request latency, 2..16. */
  private static int perServer(double rate, long median) {
    return (int) Math.max(2, Math.min(16, Math.ceil(rate * 0.05 / median)));
  }

  private static long medianSize(List<DatasetFile> files) {
    int step = Math.max(1, files.size() / 1001);
    List<Long> sizes = new ArrayList<>();
    for (int i = 0; i < files.size(); i += step) {
      if (files.get(i).size() >= 0) {
        sizes.add(files.get(i).size());
      }
    }
    if (sizes.isEmpty()) {
      return -1;
    }
    sizes.sort(null);
    return sizes.get(sizes.size() / 2);
  }
}
