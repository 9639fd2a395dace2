package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal lines of a dataset job's single-server files, written in batches: a file's lines are
 * kept until 64 KiB of lines or a second has gathered, then appended at once, so that a job of many
 * small files costs one journal write per batch instead of one per file (an open, a lock, a write
 * and a close each). {@link #close} writes what is left; a process killed loses at most the last
 * second's lines (the journal feeds forecasts; the files are recorded in their own state).
 * Thread-safe.
 */
final class DatasetJournal implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetJournal.class);
  private static final int BATCH_CHARS = 64 * 1024;
  private static final long BATCH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Path path;
  private final Ticker ticker;
  private StringBuilder pending = new StringBuilder();
  private long since;

  DatasetJournal(Path path, Ticker ticker) {
    this.path = path;
    this.ticker = ticker;
  }

  /** Adds one download's lines; writes the batch when it is large or old enough. */
  void add(String lines) {
    if (lines.isEmpty()) {
      return;
    }
    String batch = null;
    synchronized (this) {
      if (pending.length() == 0) {
        since = ticker.read();
      }
      pending.append(lines);
      if (pending.length() >= BATCH_CHARS || ticker.read() - since >= BATCH_NANOS) {
        batch = take();
      }
    }
    write(batch);
  }

  private String take() {
    String s = pending.toString();
    pending = new StringBuilder();
    return s;
  }

  private void write(String batch) {
    if (batch == null || batch.isEmpty()) {
      return;
    }
    try {
      Journal.write(path, batch);
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot append to the journal {}: {}", path, e.toString());
    }
  }

  /** Writes the lines not written yet. */
  @Override
  public void close() {
    String batch;
    synchronized (this) {
      batch = take();
    }
    write(batch);
  }
}
