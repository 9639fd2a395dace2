package org.braid.coalloc;

import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dataset scheduler's estimates: each server's rate (predicted, then measured), when a new file
 * would be complete on it, how long a running task still needs, and the job's progress. It reads
 * the scheduler's servers and running tasks and is called only under the scheduler's lock.
 */
final class DatasetEstimates {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetScheduler.class);

  private final Collection<DatasetServer> servers;
  private final List<DatasetTask> running;

  /** Bytes of the files not done whose size is known, and how many are of unknown size. */
  private long knownLeft;

  private int unknownLeft;
  private long fetchedBytes;
  private int fetched;

  DatasetEstimates(Collection<DatasetServer> servers, List<DatasetTask> running) {
    this.servers = servers;
    this.running = running;
  }

  /** The rate of servers without prediction or measure: the mean of the known ones, or 10 MB/s. */
  double fallbackRate() {
    double sum = 0;
    int n = 0;
    for (DatasetServer s : servers) {
      double r = s.rate(0);
      if (r > 0) {
        sum += r;
        n++;
      }
    }
    return n == 0 ? DatasetScheduler.UNKNOWN_RATE : sum / n;
  }

  /**
   * Expected seconds until a new file of this size (negative: unknown, {@link #expectedSize}),
   * started now, would be complete on the server.
   */
  double completion(DatasetServer s, long size, double fallback, long now) {
    double rate = s.rate(fallback);
    return s.latency(now) + (backlog(s) + (size < 0 ? expectedSize() : size)) / rate;
  }

  /**
   * The size to expect of a file whose size is not known yet: the mean of the files fetched so far,
   * 1 MiB before any. Counting such files as empty sent every file of a job without sizes (an input
   * list) to the first server at the start, until their answers told their sizes, and let a slow
   * server take as many of the last files as a fast one.
   */
  double expectedSize() {
    return fetched == 0 ? 1 << 20 : (double) fetchedBytes / fetched;
  }

  /**
   * Bytes still to come from the server for the running tasks (co-allocated ones by rate; those of
   * unknown size at {@link #expectedSize}).
   */
  private double backlog(DatasetServer s) {
    double b = 0;
    for (DatasetTask t : running) {
      int k = t.servers.indexOf(s);
      if (k < 0 || (t.size < 0 && t.servers.size() > 1)) {
        continue;
      }
      double left = t.bytesLeft(expectedSize());
      if (t.servers.size() == 1) {
        b += left;
      } else {
        double sum = 0;
        for (DatasetServer o : t.servers) {
          sum += o.rate(DatasetScheduler.UNKNOWN_RATE);
        }
        b += left * s.rate(DatasetScheduler.UNKNOWN_RATE) / sum;
      }
    }
    return b;
  }

  /** Counts a file to fetch, of the size given (negative: unknown). */
  void opened(long size) {
    if (size >= 0) {
      knownLeft += size;
    } else {
      unknownLeft++;
    }
  }

  /**
   * Records a file's size now known; counted if the file is still open (queued, in flight, or being
   * committed by the task that just fetched it: counting only the first left the job's time left at
   * about half the dataset's bytes to the end, as every file fetched whole was taken off the known
   * bytes without ever being added).
   */
  void sized(DatasetFileState st, long size) {
    if (st.size < 0 && (st.status == null || st.status.equals(DatasetScheduler.COMMITTING))) {
      unknownLeft--;
      knownLeft += size;
    }
    st.size = size;
  }

  /** Counts a file done (fetched, or failed), of the size given (negative: unknown). */
  void closed(long size, boolean wasFetched) {
    if (size >= 0) {
      knownLeft -= size;
      if (wasFetched) {
        fetchedBytes += size;
        fetched++;
      }
    } else {
      unknownLeft--;
    }
  }

  /**
   * Seconds the whole job still needs at the servers' rates together: the bytes of the files not
   * done (those of unknown size at the mean size fetched so far, 1 MiB before any), less those
   * received by the running tasks.
   */
  double jobSecondsLeft(double fallback) {
    double bytes = knownLeft + unknownLeft * expectedSize();
    for (DatasetTask t : running) {
      if (!t.duplicate && t.size >= 0) {
        bytes -= Math.min(t.size, t.received);
      }
    }
    double rate = 0;
    for (DatasetServer s : servers) {
      if (s.dropped == null) {
        rate += s.rate(fallback);
      }
    }
    return rate > 0 ? Math.max(0, bytes) / rate : Double.POSITIVE_INFINITY;
  }

  /**
   * Seconds the running single-server task {@code t} needs for {@code bytes} more, its server's
   * link shared with the server's other running tasks (processor sharing): each of those still
   * takes its part of the link until it ends, so the task gets the whole of it once they are done,
   * {@code (bytes + sum of min(other's bytes left, bytes)) / rate}; never faster than one request
   * was measured to go ({@link DatasetServer#flow}). Counted as sharing the link at a fixed share
   * (the server's rate over its running tasks), the last file of a server at the tail looked two or
   * three times slower than it was, and the idle server that took over its rest ended last.
   */
  double sharedSeconds(DatasetTask t, double bytes, double fallback) {
    DatasetServer s = t.servers.get(0);
    double rate = s.rate(fallback);
    double others = 0;
    for (DatasetTask o : running) {
      if (o == t || o.released || !o.servers.contains(s)) {
        continue;
      }
      double left = o.bytesLeft(expectedSize());
      if (o.servers.size() > 1) {
        double sum = 0;
        for (DatasetServer x : o.servers) {
          sum += x.rate(fallback);
        }
        left = o.size < 0 ? bytes : left * rate / Math.max(1, sum);
      }
      others += Math.min(left, bytes);
    }
    double shared = (bytes + others) / rate;
    return s.flow > 0 ? Math.max(shared, bytes / s.flow) : shared;
  }

  /** Seconds a single-server task still needs, by its own progress so far. */
  static double secondsLeft(DatasetTask t, long now, double fallback) {
    double elapsed = (now - t.startNanos) / 1e9;
    long got = t.received;
    DatasetServer s = t.servers.get(0);
    if (got <= 0) {
      double share = s.rate(fallback) / Math.max(1, s.running);
      return Math.max(elapsed, t.bytesLeft(0) / share);
    }
    double since = t.firstByteNanos < 0 ? elapsed : (now - t.firstByteNanos) / 1e9;
    double rate = got / Math.max(1e-3, since);
    return t.bytesLeft(0) / rate;
  }

  /** Folds recent bytes into every server's measured rate; says when one departs from the plan. */
  void sample(String id, long now) {
    for (DatasetServer s : servers) {
      s.sample(now);
      if (!s.told && s.predicted > 0 && s.measuredEnough()) {
        double ratio = s.measured / s.predicted;
        if (ratio < 0.5 || ratio > 2) {
          s.told = true;
          LOG.info(
              "[{}] {} delivers {} B/s, the plan predicted {} B/s: re-planning with the measured"
                  + " rate",
              id,
              s.key,
              Math.round(s.measured),
              Math.round(s.predicted));
        }
      }
    }
  }

  /** A progress snapshot (files and bytes done, in flight). */
  static DatasetProgress progress(
      DatasetFileState[] states, List<DatasetTask> running, double rate, double elapsed) {
    int done = 0;
    int failed = 0;
    long bytesDone = 0;
    long total = 0;
    for (DatasetFileState st : states) {
      if (st.size > 0) {
        total += st.size;
      }
      if (DatasetFileState.FETCHED.equals(st.status)
          || DatasetFileState.SKIPPED.equals(st.status)) {
        done++;
        bytesDone += Math.max(0, st.size);
      } else if (DatasetFileState.FAILED.equals(st.status)) {
        failed++;
      }
    }
    for (DatasetTask t : running) {
      if (states[t.file].status == null && !t.duplicate) {
        bytesDone += t.received;
      }
    }
    double eta = rate > 0 ? Math.max(0, total - bytesDone) / rate : Double.NaN;
    return new DatasetProgress(
        done, failed, states.length, bytesDone, total, rate, eta, running.size(), elapsed);
  }
}
