package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * One piece of work of a dataset job: a file fetched whole from one server ({@link Mode#SINGLE}),
 * through a co-allocated {@link Download} ({@link Mode#DOWNLOAD}), or the rest of a file another
 * task fetches, taken over at the tail by an idle server ({@link Mode#RANGE}). Fields written by
 * the worker are volatile; where the task stops ({@link #stop}) is guarded by the task's own lock;
 * the others are fixed or guarded by the scheduler's lock.
 */
final class DatasetTask {
  enum Mode {
    /** One request for the whole file from one server. */
    SINGLE,
    /** A {@link Download}: co-allocated across several servers, resumable, or of unknown size. */
    DOWNLOAD,
    /**
     * Bytes {@code [from, stop)} of a file whose {@link #owner} (a {@link #SINGLE} task on another
     * server) stopped at {@code from}: written into the owner's temporary file.
     */
    RANGE
  }

  final int file;
  final Mode mode;
  final List<URI> sources;
  final List<DatasetServer> servers;
  final boolean duplicate;
  final long startNanos;

  /** The first byte this task fetches: 0, or a {@link Mode#RANGE}'s start. */
  final long from;

  /** The task whose file a {@link Mode#RANGE} task helps fetch; the task itself otherwise. */
  final DatasetTask owner;

  /** Where the task stops: the file's end (-1: the size, when known), or where a helper starts. */
  private long end = -1;

  /** Bytes from {@link #from} this task has accepted to write (its own lock). */
  private long accepted;

  /** The owner's pieces fetched by other servers, once it has been split (scheduler lock). */
  volatile DatasetSplit split;

  /** The owner's temporary file, once created (read by its pieces). */
  volatile Path temp;

  /**
   * Whether the task's server no longer counts it (its body is in, or it reached its stop and waits
   * for pieces; scheduler lock).
   */
  boolean released;

  /** When the task was {@link #released} (scheduler lock), or -1. */
  long releasedNanos = -1;

  /**
   * Whether another task transferred from one of its servers while it ran (scheduler lock): its
   * rate was then a share of the server's, not what one request gets.
   */
  boolean shared;

  /** The expected size, -1 until known. */
  volatile long size;

  /** Bytes of the file received (SINGLE) or written, resumed ones included (DOWNLOAD). */
  volatile long received;

  /** When the first byte arrived, or -1. */
  volatile long firstByteNanos = -1;

  /**
   * When the latest bytes arrived, or -1 (not recorded): at the tail a task silent for a while is
   * stalled (a TCP retransmission timeout) rather than slow ({@link DatasetChooser#split}).
   */
  volatile long lastByteNanos = -1;

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
    this.from = 0;
    this.owner = this;
  }

  /**
   * A {@link Mode#RANGE} task: bytes {@code [from, end)} of {@code owner}'s file from one server.
   */
  DatasetTask(DatasetTask owner, URI source, DatasetServer server, long from, long end, long now) {
    this.file = owner.file;
    this.mode = Mode.RANGE;
    this.sources = List.of(source);
    this.servers = List.of(server);
    this.duplicate = false;
    this.size = owner.size;
    this.startNanos = now;
    this.from = from;
    this.end = end;
    this.owner = owner.owner;
  }

  /** The offset where the task stops: its end, or the size of the file (-1 while unknown). */
  synchronized long stop() {
    return end >= 0 ? end : size;
  }

  /**
   * Accepts up to {@code n} bytes just read at {@code from + got}: how many of them are before the
   * task's stop (the rest belong to a piece another server fetches, and are dropped).
   */
  synchronized int accept(long got, int n) {
    long stop = end >= 0 ? end : size;
    int keep = stop < 0 ? n : (int) Math.max(0, Math.min(n, stop - from - got));
    accepted = got + keep;
    return keep;
  }

  /**
   * Makes the task stop at {@code at}, if it has not accepted bytes past it yet (then false, and
   * nothing changes): the bytes from there on are another task's.
   */
  synchronized boolean cut(long at) {
    long stop = end >= 0 ? end : size;
    if (at <= from + accepted || stop < 0 || at >= stop) {
      return false;
    }
    end = at;
    return true;
  }

  /**
   * Makes the task stop at {@code at}, where it is: if it has accepted exactly the bytes before
   * {@code at}, and {@code at} is before its stop (else false, and nothing changes). Its running
   * read is ended at once: a stalled request whose rest another server fetches is not waited for
   * (its connection is dropped, as at any cut), and its fetch ends as one that reached its cut.
   */
  boolean cutHere(long at) {
    Runnable r;
    synchronized (this) {
      long stop = end >= 0 ? end : size;
      if (at != from + accepted || stop < 0 || at >= stop || cancelled) {
        return false;
      }
      end = at;
      r = canceller;
    }
    if (r != null) {
      r.run();
    }
    return true;
  }

  /** What {@link #read} returns when the read ended because the task was cut where it stood. */
  static final int CUT = -2;

  /**
   * Reads the request's next bytes into {@code buf}: what {@code ch} returns, or {@link #CUT} when
   * the read failed because {@link #cutHere} ended it (the rest is another's).
   */
  int read(ReadableByteChannel ch, ByteBuffer buf) throws IOException {
    try {
      return ch.read(buf);
    } catch (IOException e) {
      if (!cancelled && reachedStop()) {
        return CUT;
      }
      throw e;
    }
  }

  /** Whether the task has accepted every byte up to where it stops (it reached its cut). */
  synchronized boolean reachedStop() {
    long stop = end >= 0 ? end : size;
    return stop >= 0 && from + accepted >= stop;
  }

  /**
   * Bytes this task still has to fetch: {@code expected} less those received, if of unknown size.
   */
  double bytesLeft(double expected) {
    if (released) {
      return 0;
    }
    long stop = stop();
    return Math.max(0, (stop < 0 ? expected : stop - from) - received);
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
