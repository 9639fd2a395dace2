package org.braid.coalloc;

import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.function.LongFunction;

/**
 * Hands out byte ranges to flows according to a {@link BlockPolicy}, tracks what is written,
 * returns failed ranges to the pool, and backs off or drops failing replicas. It coordinates the
 * parts that each keep one kind of state: the {@link RangePool}, the {@link Flows}, the {@link
 * PieceTracker}, the {@link ReplicaHealth}, the {@link Assigner} and the {@link EventLog}; one lock
 * guards them all. Thread-safe: worker threads call {@link #await}, {@link #deliver}, {@link #fail}
 * concurrently. Pure apart from the injected clock, so a simulation can drive it with a fake one.
 */
final class BlockScheduler implements Leases {
  private final SchedulerLock lock = new SchedulerLock();
  private final Condition changed = lock.changed;
  private final List<Replica> replicas;
  private final BlockPolicy policy;
  private final Ticker nanos;
  private final EventLog log;
  private final RangePool pool;
  private final Flows flows;
  private final ReplicaHealth health;
  private final PolicyView view;
  private final Assigner assigner;
  private final PieceTracker pieces;
  private final RequestAhead ahead;

  /** By flow id, the lease made at construction for a request sent before the size was known. */
  private final Lease[] firstLeases;

  private Exception failure;

  /**
   * A scheduler for a file of {@code size} bytes from the replicas (those already dropped take no
   * part), {@code connections} flows each, of which {@code alreadyDone} (or null) is done. With
   * {@code pieces} (or null for none) the download is finished only once every piece was reported
   * good with {@link #pieceVerified}; pieces entirely done already (resumed and re-checked by the
   * caller) count as verified. With {@code first} (or null), the first request of some flows was
   * sent before the size was known, see {@link RequestAhead#firstLeases}.
   */
  BlockScheduler(
      long size,
      List<Replica> replicas,
      int connections,
      BlockPolicy policy,
      Ticker nanos,
      RangeSet alreadyDone,
      PieceHashes pieces,
      List<ByteRange> first) {
    this(size, replicas, connections, policy, nanos, alreadyDone, pieces, first, Guards.DEFAULT);
  }

  /** A scheduler as above whose replicas' failures are judged with the guards' limits. */
  BlockScheduler(
      long size,
      List<Replica> replicas,
      int connections,
      BlockPolicy policy,
      Ticker nanos,
      RangeSet alreadyDone,
      PieceHashes pieces,
      List<ByteRange> first,
      Guards guards) {
    this.replicas = List.copyOf(replicas);
    this.policy = policy;
    this.nanos = nanos;
    long startNanos = nanos.read();
    this.log = new EventLog(startNanos);
    this.pool = new RangePool(size, alreadyDone);
    this.flows = new Flows(this.replicas, connections, startNanos);
    this.health = new ReplicaHealth(this.replicas, guards);
    this.pieces = pieces == null ? PieceTracker.none(size) : PieceTracker.of(pieces, size, pool);
    this.view = new PolicyView(this.replicas, pool, flows);
    this.assigner = new Assigner(policy, view, pool, flows, health);
    this.ahead = new RequestAhead(flows, health, assigner);
    this.firstLeases = RequestAhead.firstLeases(pool, flows, first, size, startNanos);
    policy.plan(view);
    assigner.reserveWholeFile();
  }

  /**
   * The lease made at construction for the flow's first request, sent before the size was known;
   * null if it had none or its range could not be used (its answer must then be discarded).
   */
  Lease firstLease(Flow f) {
    return firstLeases[f.id];
  }

  /**
   * Lets the end game cut and split the first leases like any other (for flows that do not
   * pipeline: a request that asked for more than its block keeps is ended at the new end, as every
   * sequential request is), instead of treating their whole range as asked for ahead; and their
   * time to the first byte is a request latency only until the next request measures one ({@link
   * Lease#folded}).
   */
  void firstLeasesCuttable() {
    lock.locked(
        () -> {
          for (Lease l : firstLeases) {
            if (l != null) {
              synchronized (l.block) {
                l.sent = l.from;
              }
              l.folded = true;
            }
          }
        });
  }

  /**
   * Pieces all of whose bytes are written (in finished blocks or the written prefix of running
   * ones) but which are neither verified nor being checked; each is handed out once, until {@link
   * #pieceVerified} or {@link #pieceBad} reports on it.
   */
  List<Integer> piecesToVerify() {
    return lock.read(() -> pieces.toVerify(pool.committed(), pool));
  }

  /** Piece {@code i} matched its digest. */
  void pieceVerified(int i) {
    lock.update(() -> pieces.verified(i));
  }

  /**
   * Piece {@code i} did not match: its bytes go back to the pool and every replica that wrote some
   * of them has a failure counted, backs off, and is dropped after {@link
   * ReplicaHealth#MAX_BAD_PIECES}.
   */
  void pieceBad(int i, String reason) {
    lock.update(
        () -> {
          ByteRange pr = pieces.range(i);
          if (!pool.isDone(pr)) {
            // still inside a running block: stop its fetchers (the written prefix is recorded and
            // the rest returns to the pool), then reject the piece on the next pass
            pieces.rejectLater(i);
            pool.cancel(pr, "cancelled: " + reason);
            return;
          }
          pool.redo(pr);
          BitSet w = pieces.reject(i);
          long now = nanos.read();
          for (int k = w == null ? -1 : w.nextSetBit(0); k >= 0; k = w.nextSetBit(k + 1)) {
            Replica r = replicas.get(k);
            log.badPiece(k, pr, now, reason);
            if (health.badPiece(r, pr, now)) {
              drop(r, health.badPiecesReason(r, pieces.algorithm()));
            }
          }
        });
  }

  /** The file size. */
  long size() {
    return pool.size();
  }

  /** The flows, in replica order. */
  List<Flow> flows() {
    return flows.all();
  }

  List<Replica> replicas() {
    return replicas;
  }

  // ---- worker API ----

  @Override
  public Lease await(Flow f) throws InterruptedException {
    return awaitWork(f, now -> assigner.assign(f, now));
  }

  @Override
  public Request awaitRequest(Flow f) throws InterruptedException {
    return awaitWork(f, now -> ahead.next(f, 0, now));
  }

  /** Waits until {@code attempt} gives the flow work, or there is none: null then. */
  private <T> T awaitWork(Flow f, LongFunction<T> attempt) throws InterruptedException {
    lock.lock();
    try {
      while (!over(f)) {
        long backoff = health.backoffLeft(f.replica, nanos.read());
        if (backoff > 0) {
          changed.awaitNanos(backoff);
          continue;
        }
        T work = attemptLocked(f, attempt);
        if (work != null) {
          return work;
        }
        // idle: look again soon, rates change and the end game needs quick steals
        changed.awaitNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the flow can have no more work: the download is over or its replica dropped. */
  private boolean over(Flow f) {
    return failure != null || finished() || f.replica.dropped;
  }

  /** What {@code attempt} gives the flow now, unless it backs off; null for nothing now. */
  private <T> T attemptLocked(Flow f, LongFunction<T> attempt) {
    long now = nanos.read();
    if (over(f) || health.backoffLeft(f.replica, now) > 0) {
      return null;
    }
    T work = attempt.apply(now);
    if (work == null) {
      checkAllDropped();
    }
    return work;
  }

  /** Non-blocking variant of {@link #await} for simulations: the next lease, or null. */
  Lease tryAssign(Flow f) {
    return lock.read(
        () -> f.current != null ? null : attemptLocked(f, now -> assigner.assign(f, now)));
  }

  @Override
  public boolean ending() {
    return lock.read(() -> !pool.hasFree());
  }

  @Override
  public Request more(Flow f, long inFlight) {
    return lock.read(() -> attemptLocked(f, now -> ahead.next(f, inFlight, now)));
  }

  @Override
  public Step deliver(Lease l, int n, ChunkWriter w) throws IOException {
    Block.Written written = l.block.accept(l, n, w);
    if (written == null) {
      return Step.STOP;
    }
    long wrote = written.length();
    return lock.read(
        () -> {
          long now = nanos.read();
          Flow f = l.flow;
          if (!l.block.leases.contains(l)) {
            // ended by releaseAll while this chunk was written: count it, the request is over
            f.bytesWritten += wrote;
            f.bytesReceived += n;
            return Step.STOP;
          }
          l.written += wrote;
          l.received += n;
          if (wrote > 0) {
            pieces.wrote(f.replica.index, written.from(), written.from() + wrote);
          }
          f.received(l, n, now);
          if (written.reachedEnd()) {
            finish(l, now, "ok");
            return Step.DONE;
          }
          return Step.CONTINUE;
        });
  }

  @Override
  public void release(Lease l) {
    lock.locked(() -> releaseLocked(l));
  }

  private void releaseLocked(Lease l) {
    if (!l.block.leases.contains(l)) {
      return;
    }
    boolean complete;
    synchronized (l.block) {
      complete = l.pos >= l.block.end;
    }
    if (!complete && l.cancelReason != null) {
      failLocked(l, l.cancelReason, null);
    } else {
      finish(l, nanos.read(), complete && l.written > 0 ? "ok" : "lost race");
    }
  }

  /**
   * Ends every request still open (a slower duplicate, a request not answered yet) with the given
   * reason, as its worker would on stopping, so that the events and counters are final now; the
   * workers' later calls for these requests change nothing. For a complete download.
   */
  void releaseAll(String reason) {
    lock.locked(
        () -> {
          for (Flow f : flows.all()) {
            for (Lease l : new Lease[] {f.next, f.current}) {
              if (l != null) {
                l.cancelReason = reason;
                releaseLocked(l);
              }
            }
          }
        });
  }

  /** Ends the request: its block is settled, and the flow's counters and the log record it. */
  private void end(Lease l, long now, String result) {
    l.block.leases.remove(l);
    l.flow.endRequest(l, now);
    l.flow.leaseEnded(l, now);
    pool.settle(l.block);
    l.flow.account(l, now);
    log.request(l, now, result);
  }

  private void finish(Lease l, long now, String result) {
    end(l, now, result);
    Flow f = l.flow;
    health.succeeded(f.replica);
    if (l.written > 0) {
      double secs = (now - l.activeNanos) / 1e9;
      policy.completed(f, l.received / Math.max(secs, 1e-6), view);
    }
    changed.signalAll();
  }

  @Override
  public void fail(Lease l, Exception e) {
    lock.locked(
        () -> {
          SourceException se = e instanceof SourceException x ? x : null;
          if (se == null && failure == null) {
            // not the replica's fault (local disk, bug): stop the whole download
            failure = e;
          }
          failLocked(l, "error: " + OneLine.of(e), se);
        });
  }

  private void failLocked(Lease l, String result, SourceException e) {
    if (!l.block.leases.contains(l)) {
      return;
    }
    long now = nanos.read();
    end(l, now, result);
    Replica r = l.flow.replica;
    if (e != null && !r.dropped && health.failed(r, e.retryable(), e.retryAfter(), now)) {
      drop(r, OneLine.of(e));
    }
    changed.signalAll();
  }

  private void drop(Replica r, String reason) {
    health.drop(r, reason);
    checkAllDropped();
    flows.stop(r, pool, "error: replica dropped: " + reason);
  }

  /**
   * Drops a replica that has not fetched yet (its probe answer, which came after the download
   * started, rules it out): the first leases made for its requests are ended without counting a
   * failure, and their ranges go back to the pool.
   */
  void dropLate(Replica r, String reason) {
    lock.locked(
        () -> {
          for (Flow f : flows.all()) {
            Lease l = firstLeases[f.id];
            if (f.replica == r && l != null) {
              l.cancelReason = "error: replica dropped: " + reason;
              releaseLocked(l);
            }
          }
          if (!r.dropped) {
            drop(r, reason);
          }
          changed.signalAll();
        });
  }

  /**
   * Marks a replica that answered the probe after the download started as one that sends only the
   * whole file: it is asked for the rest from the first free byte once no replica that serves
   * ranges is left ({@link Assigner}).
   */
  void joinWholeFile(Replica r) {
    lock.update(() -> r.wholeFile = true);
  }

  private void checkAllDropped() {
    if (!finished() && health.allDropped()) {
      failure = new DownloadException(health.allDroppedMessage(), null, health.allDroppedKind());
      changed.signalAll();
    }
  }

  /** Every byte is written and, with piece hashes, every piece verified. */
  private boolean finished() {
    return pool.allDone() && pieces.allVerified();
  }

  /** Stops everything: workers return from {@link #await}. */
  void abort(Exception e) {
    lock.update(
        () -> {
          if (failure == null) {
            failure = e;
          }
          pool.cancelAll("error: download aborted");
        });
  }

  /** Waits up to the given time for any change (a finished block, a failure). */
  void awaitChange(long nanosTimeout) {
    lock.lock();
    try {
      if (failure == null && !finished()) {
        changed.awaitNanos(nanosTimeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }

  Exception failure() {
    return lock.read(() -> failure);
  }

  boolean complete() {
    return lock.read(this::finished);
  }

  /** The committed ranges: finished blocks plus the written prefix of active ones. */
  RangeSet committed() {
    return lock.read(pool::committed);
  }

  /**
   * The length of the file's leading stretch that can no longer change: the committed range that
   * starts at byte 0 (bytes are written before they count as committed, and committed bytes are
   * never written again), and with piece hashes no further than the verified pieces, since a bad
   * piece is fetched again.
   */
  long stablePrefix() {
    return lock.read(() -> Math.min(pool.committedPrefix(), pieces.verifiedPrefix()));
  }

  /** Bytes committed so far (for progress). */
  long committedBytes() {
    return committed().total();
  }

  List<BlockEvent> events() {
    return lock.read(log::snapshot);
  }

  /** A consistent copy of per-flow counters for reports and progress. */
  List<FlowCounters> flowCounters() {
    return lock.read(flows::counters);
  }

  long startNanos() {
    return log.startNanos();
  }

  /** How many running blocks were cut back because their flow slowed down. */
  int cuts() {
    return lock.read(assigner::cuts);
  }
}
