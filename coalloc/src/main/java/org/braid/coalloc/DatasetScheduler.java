package org.braid.coalloc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a dataset job fetches next, from where (paper 001, section 3.5: Min-Min order,
 * re-planned as transfers finish). Files go in the plan's order; each is given, when a worker is
 * free, to the server with the earliest expected completion: its request latency plus the bytes
 * already in flight there and the file's own, at its rate (measured once the server has been busy
 * for a second, the plan's prediction until then). A file that would take longer than the threshold
 * on the best server alone (at its share of the server's rate, at most the rate one request was
 * measured to get) is co-allocated across its replicas, as is one of at least 4 MiB while nothing
 * is known of that server's rate, and one with a partial co-allocated download to resume. A file of
 * unknown size goes to one server, whose probe tells its size; a large one comes back to be planned
 * again. When nothing is left to start, a file still running slowly on one server is fetched again
 * from a server that would finish it in less than half the time left, and whichever copy is
 * verified first wins. Failures exclude a source for the file (missing, corrupt) or back the server
 * off (transient; six in a row drop it); a file whose sources are all gone fails with every reason.
 * Thread-safe (one lock).
 */
final class DatasetScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetScheduler.class);

  /** The rate assumed for servers nobody knows anything about (10 MB/s). */
  static final double UNKNOWN_RATE = 10e6;

  /** Files at least this large may be co-allocated. */
  static final long COALLOCATE_MIN = 4L << 20;

  /** The status of a file whose verified copy is being given its final name. */
  static final String COMMITTING = "committing";

  /** Rounds over transiently failing sources before a file fails (unless --max-tries says). */
  static final int MAX_ROUNDS = 3;

  /** Transient failures in a row that drop a server (unless --max-tries says). */
  static final int MAX_STREAK = 6;

  /** The most pending files looked at for one whose servers are not backing off. */
  private static final int LOOK_AHEAD = 256;

  private final String id;
  private final List<DatasetFile> files;
  private DatasetFileState[] states; // grown as a feed adds files ({@link #arrived})
  private final Map<String, DatasetServer> servers = new LinkedHashMap<>();
  private DatasetServer[][] sourceServers;
  private final Map<String, Double> predicted;
  private int known; // files registered: states and sourceServers below this are set
  private final ArrayDeque<Integer> pending = new ArrayDeque<>();
  private final List<DatasetTask> running = new ArrayList<>();
  private int concurrency;
  private final boolean autoConcurrency;
  private final int workers;
  private final Ticker ticker;
  private final DatasetEstimates estimates;
  private final DatasetChooser chooser;
  private final DatasetTally tally;
  private final int maxRounds;
  private String stopped;
  private int open;

  /**
   * Running tasks that no longer transfer ({@link #released}): they do not count against the
   * concurrency, so a spare worker sends the next request while they finish.
   */
  private int released;

  /** Files are still being queued ({@link #preparing(boolean)}): workers wait rather than end. */
  private boolean preparing;

  DatasetScheduler(String id, DatasetSpec spec, Map<String, Double> predicted) {
    this.id = id;
    this.files = spec.files();
    this.predicted = predicted;
    this.states = new DatasetFileState[files.size()];
    this.sourceServers = new DatasetServer[files.size()][];
    this.concurrency = spec.concurrency();
    this.autoConcurrency = spec.autoConcurrency() && spec.arriving() != null;
    this.workers = DatasetJob.maxWorkers(spec);
    this.ticker = spec.ticker();
    while (known < files.size()) {
      register(known);
    }
    this.estimates = new DatasetEstimates(servers.values(), running);
    this.chooser =
        new DatasetChooser(id, files, sourceServers, estimates, spec.coallocateSeconds());
    int tries = spec.guards().maxTries();
    this.tally =
        new DatasetTally(
            id, servers, tries > 0 ? tries : MAX_STREAK, spec.guards().maxRetryAfter());
    this.maxRounds = tries > 0 ? tries : MAX_ROUNDS;
  }

  private void register(int i) {
    if (i == states.length) {
      int n = Math.max(16, 2 * i);
      states = Arrays.copyOf(states, n);
      sourceServers = Arrays.copyOf(sourceServers, n);
      if (chooser != null) {
        chooser.sources(sourceServers);
      }
    }
    states[i] = new DatasetFileState();
    states[i].size = files.get(i).size();
    sourceServers[i] = DatasetServer.of(files.get(i), servers, predicted);
    known = i + 1;
  }

  /**
   * Registers the files a feed appended to the job's list up to {@code file} (before they are
   * {@link #prepared}); their new servers join the job.
   */
  synchronized void arrived(int file) {
    while (known <= file) {
      register(known);
    }
  }

  /** Files not yet done (queued or in flight). */
  synchronized int open() {
    return open;
  }

  /** Files fetched at once now. */
  synchronized int concurrency() {
    return concurrency;
  }

  /** The file's state (for the job's preparation and report; callers hold no other lock). */
  synchronized DatasetFileState state(int file) {
    return states[file];
  }

  synchronized List<DatasetServer> servers() {
    return List.copyOf(servers.values());
  }

  /**
   * Says whether the job is still checking files against the disk and queueing them: meanwhile a
   * worker finding nothing to do waits for more instead of ending, and no file is copied a second
   * time.
   */
  synchronized void preparing(boolean p) {
    preparing = p;
    notifyAll();
  }

  /** Marks a file done before the job starts (skipped) or unfit (failed), or queues it. */
  synchronized void prepared(int file, String status, String error) {
    DatasetFileState st = states[file];
    st.status = status;
    st.error = error;
    if (status == null) {
      pending.add(file);
      open++;
      estimates.opened(st.size);
      notify(); // a worker waiting for the first files
    }
  }

  /**
   * The next task for a free worker, waiting while there is none yet; null once every file is done
   * or the job stopped.
   */
  synchronized DatasetTask next() throws InterruptedException {
    while (true) {
      if (stopped != null || (open == 0 && !preparing)) {
        return null;
      }
      DatasetTask t = poll(ticker.read());
      if (t != null) {
        return t;
      }
      wait(100);
    }
  }

  /** The task that may start now (counted as running), or null; does not wait. */
  synchronized DatasetTask poll(long now) {
    if (stopped != null || open == 0 || running.size() - released >= concurrency) {
      return null;
    }
    DatasetTask t = fromPending(now);
    if (t != null && !preparing && chooser.leavesIdle(t, now)) {
      // the job's last files: an idle server too slow for any of them takes part of a running one
      DatasetTask piece = chooser.split(running, this::candidates, now);
      if (piece != null) {
        pending.addFirst(t.file);
        t = piece;
      }
    }
    if (t == null && pending.isEmpty() && !preparing) {
      t = chooser.split(running, this::candidates, now);
    }
    if (t == null && pending.isEmpty() && !preparing) {
      t = chooser.duplicate(running, this::candidates, now);
    }
    if (t != null) {
      start(t);
    }
    return t;
  }

  private DatasetTask fromPending(long now) {
    Iterator<Integer> it = pending.iterator();
    for (int scanned = 0; it.hasNext() && scanned < LOOK_AHEAD; scanned++) {
      int i = it.next();
      List<Integer> usable = candidates(i, -1);
      if (usable.isEmpty()) {
        it.remove();
        fail(i);
        continue;
      }
      List<Integer> ready = new ArrayList<>();
      for (int k : usable) {
        if (sourceServers[i][k].usable(now)) {
          ready.add(k);
        }
      }
      if (!ready.isEmpty()) {
        it.remove();
        return chooser.plan(i, states[i], ready, now);
      }
    }
    return null;
  }

  /** The sources that may serve the file: not excluded, server not dropped, not {@code except}. */
  private List<Integer> candidates(int file, int except) {
    List<Integer> out = new ArrayList<>();
    DatasetServer[] ss = sourceServers[file];
    for (int k = 0; k < ss.length; k++) {
      if (k != except && !states[file].excluded(k) && ss[k].dropped == null) {
        out.add(k);
      }
    }
    return out;
  }

  private void start(DatasetTask t) {
    running.add(t);
    if (t.mode != DatasetTask.Mode.RANGE) {
      states[t.file].active++; // a piece ends before its owner: the owner stands for the file
    }
    for (DatasetServer s : t.servers) {
      if (s.running > 0) {
        t.shared = true;
        for (DatasetTask r : running) {
          if (r != t && !r.released && r.servers.contains(s)) {
            r.shared = true;
          }
        }
      }
      s.started();
    }
  }

  /**
   * Whether the task may give the file its final name: true for the first of two racing copies to
   * ask, false (and the task should discard its copy) when the file is done or the job stopped.
   */
  synchronized boolean claim(DatasetTask t) {
    DatasetFileState st = states[t.file];
    if (st.status != null || stopped != null || t.cancelled) {
      return false;
    }
    st.status = COMMITTING;
    if (t.twin != null) {
      t.twin.cancel();
    }
    return true;
  }

  /** Records how a task ended and decides what becomes of its file. */
  synchronized void finished(DatasetTask t, DatasetOutcome o) {
    long now = ticker.read();
    running.remove(t);
    if (t.released) {
      released--;
    } else {
      for (DatasetServer s : t.servers) {
        s.ended(now);
      }
    }
    if (t.mode == DatasetTask.Mode.RANGE) {
      tally.piece(t, o, now);
      notifyAll();
      return;
    }
    DatasetFileState st = states[t.file];
    st.active--;
    if (t.twin != null) {
      t.twin.twin = null;
    }
    if (o.size() >= 0) {
      estimates.sized(st, o.size());
    }
    if (o.ok()) {
      succeeded(t, o, now);
    } else if (o.local() != null) {
      st.status = null;
      stop("cannot write the output: " + o.local());
    } else if (o.cancelled()) {
      if (st.status == null && stopped == null && st.active == 0) {
        pending.addFirst(t.file); // lost nothing: its twin failed meanwhile
      }
    } else {
      failedTask(t, o, now);
    }
    notifyAll();
  }

  /**
   * Gives back the server of a task that transfers no more: its whole body has arrived and it is
   * being verified, flushed and renamed, or it reached its cut and now only waits for the pieces
   * other servers fetch. The server counts as free (and may take the next file or a piece at once,
   * rather than stand idle while this one is finished: a flush alone takes 2-10 ms of a disk), and
   * the task no longer counts against the concurrency.
   */
  synchronized void released(DatasetTask t) {
    if (!t.released) {
      t.released = true;
      released++;
      long now = ticker.read();
      t.releasedNanos = now;
      for (DatasetServer s : t.servers) {
        s.ended(now);
      }
      notifyAll();
    }
  }

  private void succeeded(DatasetTask t, DatasetOutcome o, long now) {
    DatasetFileState st = states[t.file];
    st.status = DatasetFileState.FETCHED;
    st.seconds = (now - t.startNanos) / 1e9;
    st.sha256 = o.digests().get("sha-256");
    st.servers = o.servers();
    open--;
    estimates.closed(st.size, /* fetched= */ true);
    if (LOG.isDebugEnabled()) {
      LOG.debug(
          "[{}] fetched {}: {} B in {} s ({}), {} open",
          id,
          DatasetNames.shown(files.get(t.file).path()),
          o.size(),
          String.format(Locale.ROOT, "%.3f", st.seconds),
          o.servers(),
          open);
    }
    tally.fetched(t, o, now);
  }

  private void failedTask(DatasetTask t, DatasetOutcome o, long now) {
    DatasetFileState st = states[t.file];
    DatasetFile f = files.get(t.file);
    for (DatasetOutcome.Failure x : o.failures()) {
      int k = f.sources().indexOf(x.source());
      st.error(x.reason());
      if (k >= 0) {
        st.exclude(k, x.transientFailure());
        tally.failed(sourceServers[t.file][k], x, now);
      }
    }
    if (o.mismatch() && !st.single) {
      st.single = true;
      st.error("a co-allocated copy failed its checksum; fetching from one replica at a time");
    }
    if (st.status != null || st.active > 0 || stopped != null) {
      return; // done by its twin, or the twin still runs
    }
    if (!candidates(t.file, -1).isEmpty()) {
      pending.addFirst(t.file);
    } else if (st.failedThisRound != null && st.rounds + 1 < maxRounds && anyServerLeft(t.file)) {
      st.rounds++;
      st.failedThisRound = null;
      pending.addLast(t.file);
    } else {
      fail(t.file);
    }
  }

  private boolean anyServerLeft(int file) {
    for (int k = 0; k < sourceServers[file].length; k++) {
      if (sourceServers[file][k].dropped == null
          && (states[file].excluded == null || !states[file].excluded.get(k))) {
        return true;
      }
    }
    return false;
  }

  private void fail(int file) {
    DatasetFileState st = states[file];
    List<String> why = st.errors == null ? new ArrayList<>() : new ArrayList<>(st.errors);
    for (DatasetServer s : sourceServers[file]) {
      if (s.dropped != null) {
        why.add(s.key + " not used: " + s.dropped);
      }
    }
    st.status = DatasetFileState.FAILED;
    st.error = why.isEmpty() ? "no usable replica" : String.join("; ", why);
    open--;
    estimates.closed(st.size, /* fetched= */ false);
    LOG.warn("[{}] {} failed: {}", id, DatasetNames.shown(files.get(file).path()), st.error);
  }

  /**
   * Whether a file planned without a size stays on the server whose answer just told its size
   * ({@code size}, at least {@link #COALLOCATE_MIN}): yes when that server would finish it (after
   * its other files in flight) within the time the whole job still needs by the current estimates,
   * so the file does not make the job's end wait; no when it would, and the file goes back to be
   * co-allocated across its replicas (the answer's connection is dropped, and with it the bytes
   * already on their way).
   */
  synchronized boolean keepDiscovered(DatasetTask t, long size) {
    t.size = size; // in the server's backlog at its size, less what arrived already
    boolean keep = chooser.keep(t, ticker.read());
    if (keep) {
      estimates.sized(states[t.file], size);
    } else {
      t.size = -1;
    }
    return keep;
  }

  /** Seconds the job still needs by the current estimates ({@link DatasetEstimates}). */
  synchronized double jobSecondsLeft() {
    return estimates.jobSecondsLeft(estimates.fallbackRate());
  }

  /** Stops the job: no new task; running ones are cancelled. */
  synchronized void stop(String why) {
    stop(why, /* tell= */ true);
  }

  /** Stops the job, logging why when {@code tell} (not when the caller reports it itself). */
  synchronized void stop(String why, boolean tell) {
    if (stopped == null) {
      stopped = why;
      if (tell) {
        LOG.warn("[{}] stopping: {}", id, why);
      }
    }
    for (DatasetTask t : running) {
      t.cancel();
    }
    notifyAll();
  }

  synchronized String stopped() {
    return stopped;
  }

  /** Whether every file is done (or the job stopped and nothing runs). */
  synchronized boolean done() {
    return ((open == 0 && !preparing) || stopped != null) && running.isEmpty();
  }

  /** Waits until a task ends or the time passes. */
  synchronized void awaitChange(long nanos) throws InterruptedException {
    if (!done()) {
      TimeUnit.NANOSECONDS.timedWait(this, nanos);
    }
  }

  /**
   * Applies a batch plan that arrived while the job runs: the files not yet started go in its order
   * (those it does not name after them, in their order), and servers without a predicted rate get
   * its rate.
   */
  synchronized void replan(DatasetOrder plan) {
    if (autoConcurrency) {
      concurrency = Math.min(workers, DatasetJob.defaultConcurrency(files, plan.rates()));
    }
    Map<String, Double> rates = plan.ratesByServer();
    int rated = 0;
    for (DatasetServer s : servers.values()) {
      Double r = rates.get(s.key);
      if (r != null && s.predicted == 0) {
        s.predicted = r;
        rated++;
      }
    }
    plan.reorder(pending, files);
    LOG.info(
        "[{}] the batch plan arrived: {} files to start in its order, {} servers rated, {} at once",
        id,
        pending.size(),
        rated,
        concurrency);
    notifyAll();
  }

  /** A progress snapshot (files and bytes done, in flight). */
  synchronized DatasetProgress progress(double rate, double elapsed) {
    return DatasetEstimates.progress(
        known == states.length ? states : Arrays.copyOf(states, known), running, rate, elapsed);
  }

  /**
   * Folds recent bytes into every server's measured rate (says when one departs from the plan), and
   * abandons the requests that have been slower than the low-speed limit for its whole time.
   */
  synchronized void sample(long now) {
    estimates.sample(id, now);
    for (DatasetTask t : running) {
      LowSpeed slow = t.lowSpeed;
      if (slow != null && slow.check(now)) {
        t.abandon();
      }
    }
  }
}
