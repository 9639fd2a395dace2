package org.braid.coalloc;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas whose probe answer came after the download started (it starts once the answers in
 * hand decide the size, see {@link Prober#settled}): a thread that judges each answer as it comes
 * ({@link Prober#judgeLate}), starts the replica's flows when it can join (the first with the data
 * of its folded first request), and drops it with the reason when it cannot or does not answer by
 * the probe's deadline. It ends with the download. Thread-safe.
 */
final class LateAnswers {
  // logs under the download's name, as the probe always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** How often the thread looks whether the download is over while it waits for answers. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Judges a late answer: null if the replica can join, else why not. */
  @FunctionalInterface
  interface Judge {
    String judge(int index, Prober.Answer answer);
  }

  private final String id;
  private final ProbeRound round;
  private final Set<Integer> pending;
  private final BlockScheduler scheduler;
  private final Fetcher fetcher;
  private final List<RangeSource> sources;
  private final List<Thread> workers;
  private final Judge judge;

  /**
   * Late answers of the replicas {@code pending} (indices) of {@code round}; the workers started
   * for them are added to {@code workers}, which must allow that while others read it.
   */
  LateAnswers(
      String id,
      ProbeRound round,
      Set<Integer> pending,
      BlockScheduler scheduler,
      Fetcher fetcher,
      List<RangeSource> sources,
      List<Thread> workers,
      Judge judge) {
    this.id = id;
    this.round = round;
    this.pending = new TreeSet<>(pending);
    this.scheduler = scheduler;
    this.fetcher = fetcher;
    this.sources = sources;
    this.workers = workers;
    this.judge = judge;
  }

  /** Starts the daemon thread (counted among the workers while it runs); null if none pending. */
  Thread start() {
    if (pending.isEmpty()) {
      return null;
    }
    Thread t = new Thread(this::run, "braid-" + id + "-late");
    t.setDaemon(true);
    workers.add(t);
    t.start();
    return t;
  }

  private void run() {
    while (!pending.isEmpty() && !over()) {
      int i = round.next(POLL_NANOS);
      if (i >= 0 && pending.remove(i)) {
        admit(i, round.answer(i));
      } else if (i < 0 && round.expired()) {
        for (int k : pending) {
          admit(k, round.timedOut(k));
        }
        pending.clear();
      }
    }
    // the download ended first: answers still to come are not read
    for (int k : pending) {
      ProbeRound.discard(round.answer(k));
    }
  }

  private boolean over() {
    return scheduler.complete() || scheduler.failure() != null;
  }

  private void admit(int i, Prober.Answer a) {
    Replica r = scheduler.replicas().get(i);
    String why = judge.judge(i, a);
    if (why != null) {
      ProbeRound.discard(a);
      LOG.warn("[{}] not using {}", id, why);
      scheduler.dropLate(r, why);
      return;
    }
    LOG.debug("[{}] {} answered after the start and joins", id, r.uri);
    if (!a.validators().ranges()) {
      scheduler.joinWholeFile(r);
    }
    for (Flow f : scheduler.flows()) {
      if (f.replica == r) {
        boolean first = f.connection == 0;
        workers.add(
            fetcher.start(
                f,
                sources.get(i),
                first ? scheduler.firstLease(f) : null,
                first ? a.data() : null));
      }
    }
  }
}
