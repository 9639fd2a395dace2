package org.braid.coalloc;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches a running download from the caller's thread until the last byte is in, the download
 * fails, or every worker stopped: on each pass (at least every 100 ms) it verifies the pieces
 * written, and on its {@link Ticker}'s time checkpoints the control file every second and reports
 * progress every 200 ms (the journal is written once, when the run ends). The whole-file digests
 * are fed by a {@link PrefixHasher} on a thread of its own.
 */
final class Supervisor {
  /** Longest wait for a change before a pass. */
  private static final long PASS_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private static final long CHECKPOINT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final long PROGRESS_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final BlockScheduler s;
  private final PartFile part;
  private final PieceVerifier pieces;
  private final Consumer<Progress> progress;
  private final ProgressMeter meter;
  private final Ticker ticker;

  /** A supervisor of the scheduler's download into the part file; {@code progress} may be null. */
  Supervisor(
      BlockScheduler s,
      PartFile part,
      PieceVerifier pieces,
      Consumer<Progress> progress,
      Ticker ticker) {
    this.s = s;
    this.part = part;
    this.pieces = pieces;
    this.progress = progress;
    this.meter = new ProgressMeter(s.replicas().size(), s.size(), s.startNanos());
    this.ticker = ticker;
  }

  /** Runs the passes until the download is complete, failed, or without live workers. */
  void run(List<Thread> workers) throws IOException {
    long lastCheckpoint = ticker.read();
    while (!s.complete() && s.failure() == null && workers.stream().anyMatch(Thread::isAlive)) {
      s.awaitChange(PASS_NANOS);
      if (s.complete()) {
        // the last byte is in: stop the transfer clock now; hashing the rest comes after
        break;
      }
      pieces.verify(s, part);
      long now = ticker.read();
      if (now - lastCheckpoint >= CHECKPOINT_NANOS) {
        part.checkpoint(s.committed());
        lastCheckpoint = now;
      }
      if (progress != null && now - meter.last() >= PROGRESS_NANOS) {
        progress.accept(meter.next(now, s.flowCounters(), s.committedBytes()));
      }
    }
  }
}
