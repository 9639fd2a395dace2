package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The walk every {@link Lister} shares: directories breadth-first from the root, each read once by
 * the protocol's {@link #children}, every name checked by {@link DatasetNames}, within the {@link
 * ListLimits} (entries, depth, total time). Protocols only say how to read one directory. Not
 * thread-safe: one {@link #list} at a time.
 */
abstract class TreeLister implements Lister {

  /** What a directory entry is. */
  enum Kind {
    FILE,
    DIRECTORY,
    /** Anything else: a link, a device, a socket...; {@link Entry#what} says which. */
    OTHER
  }

  /**
   * One entry of a directory as the server describes it.
   *
   * @param name the entry's own name (one segment), decoded
   * @param kind what it is
   * @param size the size of a file in bytes, -1 when unknown
   * @param what for {@link Kind#OTHER}, what it is and why it is not taken ("symbolic link, not
   *     followed")
   */
  record Entry(String name, Kind kind, long size, String what) {}

  final URI root;
  final ListLimits limits;
  private final Ticker ticker;
  private long deadline;

  TreeLister(URI root, ListLimits limits, Ticker ticker) {
    this.root = root;
    this.limits = limits;
    this.ticker = ticker;
  }

  @Override
  public URI root() {
    return root;
  }

  /**
   * The entries of the directory at {@code dir} (relative to the root, "" for the root, else ending
   * in {@code /}). An implementation reads at most {@link ListLimits#maxResponseBytes()} and may
   * return at most {@code room} entries more than it is allowed (it may stop early and fail).
   *
   * @throws SourceException if the server fails or the answer is not a listing
   */
  abstract List<Entry> children(String dir, int room) throws IOException;

  /** The stream bounded by the limits: at most the response bytes, within the listing's time. */
  final InputStream bounded(InputStream in, URI u, String what) {
    return new BoundedStream(in, limits.maxResponseBytes(), u, what, ticker, deadline);
  }

  /** Milliseconds left of the listing's time, at least 1. */
  final long remainingMillis() {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - ticker.read()));
  }

  @Override
  public Listing list() throws IOException {
    deadline = ticker.read() + limits.timeout().toNanos();
    List<ListedFile> files = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    Deque<String> dirs = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    dirs.add("");
    depths.add(0);
    int entries = 0;
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      int depth = depths.poll();
      if (ticker.read() - deadline > 0) {
        throw limit("listing took longer than " + limits.timeout().toSeconds() + " s");
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new SourceException(root, "listing interrupted", false, null);
      }
      for (Entry e : children(dir, limits.maxEntries() - entries)) {
        if (++entries > limits.maxEntries()) {
          throw limit("more than " + limits.maxEntries() + " entries");
        }
        String path = dir + e.name();
        String bad = e.name().contains("/") ? "name contains '/'" : DatasetNames.problem(path);
        if (bad != null) {
          refused.add(DatasetNames.shown(path) + ": " + bad);
        } else if (e.kind() == Kind.FILE) {
          files.add(new ListedFile(path, e.size()));
        } else if (e.kind() == Kind.DIRECTORY) {
          if (depth + 1 > limits.maxDepth()) {
            throw limit("directories deeper than " + limits.maxDepth() + " levels at " + path);
          }
          dirs.add(path + "/");
          depths.add(depth + 1);
        } else {
          refused.add(DatasetNames.shown(path) + ": " + e.what());
        }
      }
    }
    return new Listing(root, files, refused);
  }

  /** The failure for a listing that exceeds a limit: not retryable. */
  final SourceException limit(String what) {
    return new SourceException(root, "listing refused: " + what, false, null);
  }

  @Override
  public void close() throws IOException {}
}
