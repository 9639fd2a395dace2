package org.braid.coalloc;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * The milestones of one dataset job for timing measurements ({@link Dataset.Builder#milestones}):
 * {@code job} (the job starts), {@code prepared} (files checked against the disk and queued),
 * {@code request1} (the first file handed to a worker: its request goes out), {@code byte1} (the
 * first body byte of any file), {@code files10} ... {@code files100} (each tenth of the files done,
 * verified or given up on), {@code plan} (the batch plan applied). Each is told once, with the
 * wall-clock time, from whichever thread reaches it; without a listener every call returns at once.
 */
final class DatasetMilestones {
  static final DatasetMilestones NONE = new DatasetMilestones(null, Clock.systemUTC());

  private final BiConsumer<String, Instant> sink;
  private final Clock clock;
  private final AtomicBoolean request = new AtomicBoolean();
  private final AtomicBoolean firstByte = new AtomicBoolean();
  private int nextTenth = 1; // the supervisor's thread only

  DatasetMilestones(BiConsumer<String, Instant> sink, Clock clock) {
    this.sink = sink;
    this.clock = clock;
  }

  void mark(String name) {
    if (sink != null) {
      sink.accept(name, clock.instant());
    }
  }

  void firstRequest() {
    if (sink != null && request.compareAndSet(false, true)) {
      mark("request1");
    }
  }

  void firstByte() {
    if (sink != null && firstByte.compareAndSet(false, true)) {
      mark("byte1");
    }
  }

  /** Marks every tenth of {@code total} files reached by {@code done} (one thread only). */
  void filesDone(int done, int total) {
    if (sink == null || total <= 0) {
      return;
    }
    while (nextTenth <= 10 && (long) done * 10 >= (long) nextTenth * total) {
      mark("files" + nextTenth * 10);
      nextTenth++;
    }
  }
}
