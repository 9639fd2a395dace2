package org.braid.coalloc;

import java.net.URI;
import java.util.List;

/**
 * One piece of work of a dataset job: a file fetched whole from one server ({@link Mode#SINGLE}),
 * or through a co-allocated {@link Download} ({@link Mode#DOWNLOAD}). Fields written by the worker
 * are volatile; the others are fixed or guarded by the scheduler's lock.
 */
final class DatasetTask {
  enum Mode {
    /** One request for the whole file from one server. */
    SINGLE,
    /** A {@link Download}: co-allocated across several servers, resumable, or of unknown size. */
    DOWNLOAD
  }

  final int file;
  final Mode mode;
  final List<URI> sources;
  final List<DatasetServer> servers;
  final boolean duplicate;
  final long startNanos;

  /** The expected size, -1 until known. */
  volatile long size;

  /** Bytes of the file received (SINGLE) or written, resumed ones included (DOWNLOAD). */
  volatile long received;

  /** When the first byte arrived, or -1. */
  volatile long firstByteNanos = -1;

  /** The low-speed watch of the running request (SINGLE), or null. */
  volatile LowSpeed lowSpeed;

  volatile boolean cancelled;
  private Runnable canceller;

  /** The other task fetching the same file at the tail (scheduler lock), or null. */
  DatasetTask twin;

  DatasetTask(
      int file,
      Mode mode,
      List<URI> sources,
      List<DatasetServer> servers,
      boolean duplicate,
      long size,
      long startNanos) {
    this.file = file;
    this.mode = mode;
    this.sources = List.copyOf(sources);
    this.servers = List.copyOf(servers);
    this.duplicate = duplicate;
    this.size = size;
    this.startNanos = startNanos;
  }

  /** Sets what stops the running fetch; runs it at once if the task is already cancelled. */
  void onCancel(Runnable r) {
    boolean now;
    synchronized (this) {
      canceller = r;
      now = cancelled;
    }
    if (now && r != null) {
      r.run();
    }
  }

  /**
   * Abandons the running request (too slow): its fetch fails soon, a failure of its replica, not a
   * cancellation.
   */
  void abandon() {
    Runnable r;
    synchronized (this) {
      r = canceller;
    }
    if (r != null) {
      r.run();
    }
  }

  /** Stops the task: its fetch ends soon with a cancelled outcome. */
  void cancel() {
    Runnable r;
    synchronized (this) {
      cancelled = true;
      r = canceller;
    }
    if (r != null) {
      r.run();
    }
  }
}
