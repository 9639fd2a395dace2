package org.braid.coalloc;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches a running download from the caller's thread until the last byte is in, the download
 * fails, or every worker stopped: on each pass (at least every 100 ms) it verifies the pieces
 * written, hashes a bounded step of the stable leading bytes, and on its {@link Ticker}'s time
 * checkpoints the control file every second and reports progress every 200 ms (the journal is
 * written once, when the run ends).
 */
final class Supervisor {
  /** Longest wait for a change before a pass. */
  private static final long PASS_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private static final long CHECKPOINT_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The most the supervisor hashes per pass (about 30 ms with SHA-256 instructions). */
  private static final long HASH_STEP = 64L << 20;

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
  void run(PartFile.RunningDigests hasher, List<Thread> workers) throws IOException {
    long lastCheckpoint = ticker.read();
    while (!s.complete() && s.failure() == null && workers.stream().anyMatch(Thread::isAlive)) {
      s.awaitChange(PASS_NANOS);
      if (s.complete()) {
        // the last byte is in: stop the transfer clock now; hashing the rest comes after
        break;
      }
      pieces.verify(s, part);
      // hash the final leading bytes now, a bounded step per pass, so that little is left at the
      // end
      hasher.advance(Math.min(s.stablePrefix(), hasher.hashed() + HASH_STEP));
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
