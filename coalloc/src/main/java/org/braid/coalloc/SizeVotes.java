package org.braid.coalloc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sizes the replicas report, for a download that started before most of them answered (on the
 * first answer, when the user's checksum will verify the file, see {@link Prober#settled}): every
 * later answer is counted, and once more than half of all the replicas report another size than the
 * one the download started with, the start is {@link Overruled}. Thread-safe.
 */
final class SizeVotes {
  /** A later majority of the replicas reports another size than the download started with. */
  static final class Overruled extends DownloadException {
    private static final long serialVersionUID = 1L;

    /** The size the majority reports. */
    final long size;

    Overruled(String message, long size) {
      super(message, null, Kind.NETWORK);
      this.size = size;
    }
  }

  private final int replicas;
  private final long started;
  private final Map<Long, Integer> count = new HashMap<>();

  /** Votes of {@code replicas} replicas for a download started at {@code started} bytes. */
  SizeVotes(int replicas, long started, List<Prober.Answer> answers) {
    this.replicas = replicas;
    this.started = started;
    for (Prober.Answer a : answers) {
      add(a);
    }
  }

  /**
   * Counts an answer (one without validators, or null, counts for no size): the {@link Overruled}
   * failure when more than half of all the replicas now report one other size, else null.
   */
  synchronized Overruled add(Prober.Answer a) {
    if (a == null || a.validators() == null) {
      return null;
    }
    long size = a.validators().size();
    int n = count.merge(size, 1, Integer::sum);
    if (size == started || 2 * n <= replicas) {
      return null;
    }
    return new Overruled(
        n
            + " of "
            + replicas
            + " replicas serve "
            + size
            + " bytes, but the download started on the first answers' "
            + started,
        size);
  }
}
