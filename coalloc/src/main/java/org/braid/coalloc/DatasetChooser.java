package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.DoubleUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, for the {@link DatasetScheduler} (under its lock), where a file goes: the server with
 * the earliest expected completion, or all its replicas when it is large (co-allocated); and at the
 * tail, which slow file to fetch again from a faster server. Not thread-safe on its own.
 */
final class DatasetChooser {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetChooser.class);

  private final String id;
  private final List<DatasetFile> files;
  private DatasetServer[][] sourceServers;
  private final DatasetEstimates estimates;
  private final double coallocateSeconds;

  DatasetChooser(
      String id,
      List<DatasetFile> files,
      DatasetServer[][] sourceServers,
      DatasetEstimates estimates,
      double coallocateSeconds) {
    this.id = id;
    this.files = files;
    this.sourceServers = sourceServers;
    this.estimates = estimates;
    this.coallocateSeconds = coallocateSeconds;
  }

  /** The scheduler's servers of each file, after it grew them for files a feed added. */
  void sources(DatasetServer[][] ss) {
    this.sourceServers = ss;
  }

  /**
   * The task for file {@code i} given its ready sources: the one whose server would finish it
   * first, or all of them (co-allocated) when it is large and one alone would take longer than the
   * threshold, or it has a partial co-allocated download to resume.
   */
  DatasetTask plan(int i, DatasetFileState st, List<Integer> ready, long now) {
    DatasetFile f = files.get(i);
    long size = st.size;
    double fallback = estimates.fallbackRate();
    DatasetServer[] ss = sourceServers[i];
    ready.sort(Comparator.comparingDouble(k -> estimates.completion(ss[k], size, fallback, now)));
    preferIdle(ready, ss, size, fallback, now);
    DatasetServer first = ss[ready.get(0)];
    double alone = first.latency(now) + size / first.requestRate(fallback);
    boolean known = first.measuredEnough() || first.predicted > 0 || first.flow > 0;
    boolean big =
        size >= DatasetScheduler.COALLOCATE_MIN
            && ready.size() > 1
            && (!known || alone > coallocateSeconds);
    boolean download = !st.single && (st.resumable || big);
    List<Integer> use = download ? ready : ready.subList(0, 1);
    List<URI> uris = new ArrayList<>();
    List<DatasetServer> sv = new ArrayList<>();
    for (int k : use) {
      uris.add(f.sources().get(k));
      sv.add(ss[k]);
    }
    return new DatasetTask(
        i,
        download ? DatasetTask.Mode.DOWNLOAD : DatasetTask.Mode.SINGLE,
        uris,
        sv,
        false,
        size,
        now);
  }

  /**
   * A large file found on a server by its answer stays there when the server would finish it within
   * this share of the job's estimated time left (a margin for estimates made from sizes not known
   * yet).
   */
  static final double KEEP_SHARE = 0.5;

  /**
   * Whether the single-server task {@code t}, its size just told by its server's answer (and set in
   * {@code t.size}), stays there: see {@link DatasetScheduler#keepDiscovered}.
   */
  boolean keep(DatasetTask t, long now) {
    double fallback = estimates.fallbackRate();
    double job = estimates.jobSecondsLeft(fallback);
    double mine = estimates.completion(t.servers.get(0), 0, fallback, now);
    boolean keep = mine <= KEEP_SHARE * job;
    if (LOG.isDebugEnabled()) {
      LOG.debug(
          "[{}] {} is {} B: {} on {} (done there in {} s at {} B/s, the job in {} s)",
          id,
          DatasetNames.shown(files.get(t.file).path()),
          t.size,
          keep ? "kept" : "co-allocating it rather than",
          t.servers.get(0).key,
          Math.round(mine * 10) / 10.0,
          Math.round(t.servers.get(0).rate(fallback)),
          Math.round(job * 10) / 10.0);
    }
    return keep;
  }

  /**
   * Moves to the front a server with fewer than {@link #MIN_IN_FLIGHT} files in flight (an idle one
   * first) when the best server has more and that one would still finish the file within {@link
   * #IDLE_SHARE} of the time the job still needs. A link left idle while files wait is capacity the
   * job never gets back: with 16 files at once, the 1000 set's 10 Mbit/s mirror stood idle for
   * about a second of each run, a file at a time, because a faster mirror's backlog looked shorter;
   * and a mirror with one file in flight stands idle between its files, from the last byte of one
   * to the first of the next (over session 11's quiet runs, the 20 Mbit/s mirror carried 0.5-2%
   * less per second than under globus-url-copy, whose 32 transfers keep about four on it).
   */
  private void preferIdle(
      List<Integer> ready, DatasetServer[] ss, long size, double fallback, long now) {
    if (ready.size() < 2) {
      return;
    }
    double limit = -1;
    for (int busy = 0; busy < MIN_IN_FLIGHT; busy++) {
      if (ss[ready.get(0)].running <= busy) {
        return; // the best server is as free
      }
      for (int j = 1; j < ready.size(); j++) {
        DatasetServer s = ss[ready.get(j)];
        if (s.running != busy) {
          continue;
        }
        if (limit < 0) {
          limit = IDLE_SHARE * estimates.jobSecondsLeft(fallback);
        }
        if (estimates.completion(s, size, fallback, now) <= limit) {
          ready.add(0, ready.remove(j));
          return;
        }
      }
    }
  }

  /**
   * Whether the planned single-server task goes to a busy server while one of its file's other
   * servers stands idle: at the job's end ({@link #preferIdle} found that server too slow for the
   * file), when the idle server had better take over part of a running file ({@link #split}) than
   * wait for the last file to start.
   */
  boolean leavesIdle(DatasetTask t, long now) {
    if (t.mode != DatasetTask.Mode.SINGLE || t.servers.get(0).running == 0) {
      return false;
    }
    for (DatasetServer s : sourceServers[t.file]) {
      if (s.running == 0 && s.usable(now) && s != t.servers.get(0)) {
        return true;
      }
    }
    return false;
  }

  /** Files in flight each server is kept at when it can take them ({@link #preferIdle}). */
  static final int MIN_IN_FLIGHT = 2;

  /**
   * An idle server is given a file the best server would finish sooner when it would finish it
   * within this share of the job's estimated time left (so that it makes no straggler at the end).
   */
  static final double IDLE_SHARE = 0.25;

  /**
   * A split saves at least this much of the time the task being cut still needs. At the tail the
   * link that ends last sets the job's end: with 50 ms and 128 KiB, the 1,000-file set's links
   * ended up to 0.2 s apart, the 20 Mbit/s mirror idle while the 10 Mbit/s one still had 250 kB of
   * a piece to send.
   */
  static final double MIN_SPLIT_GAIN = 0.02;

  /** The smallest piece a split hands to another server. */
  static final long MIN_PIECE = 64 * 1024;

  /**
   * At the tail (nothing left to start), the rest of the single-server file (or piece) that would
   * end last, taken over by an idle server, or null: the running task is cut where both would
   * finish at the same time by its own measured rate and the idle server's rate and request
   * latency, so that the links end together rather than one waiting on the last file of another; no
   * byte is fetched twice (a whole-file copy of a slow file fetched up to 10 MB twice at the 1,000
   * file set's tail). Only tasks that have received bytes for a while (their rate is known) and
   * files of known size are cut.
   *
   * @param candidates the usable sources of a file except one (file, except)
   */
  DatasetTask split(
      List<DatasetTask> running, BiFunction<Integer, Integer, List<Integer>> candidates, long now) {
    double fallback = estimates.fallbackRate();
    DatasetTask pick = null;
    int pickSource = -1;
    long pickAt = -1;
    double pickEnd = 0;
    double gain = MIN_SPLIT_GAIN;
    for (DatasetTask t : running) {
      if (t.mode == DatasetTask.Mode.DOWNLOAD
          || t.duplicate
          || t.twin != null
          || t.cancelled
          || t.released
          || t.size < 0
          || t.firstByteNanos < 0
          || now - t.firstByteNanos < SPLIT_AFTER_NANOS
          || t.received <= 0) {
        continue;
      }
      double mean = t.received / ((now - t.firstByteNanos) / 1e9);
      double silent = silentSeconds(t, now);
      // bytes may be on their way to the task, unless it is stalled
      long next = t.from + t.received + (silent > 0 ? 0 : Fetcher.BUFFER);
      long stop = t.stop();
      if (stop - next < MIN_PIECE) {
        continue;
      }
      DoubleUnaryOperator rest = ownSeconds(t, mean, fallback);
      DoubleUnaryOperator own = silent > 0 ? b -> silent + rest.applyAsDouble(b) : rest;
      double left = own.applyAsDouble(stop - next);
      int mine = files.get(t.file).sources().indexOf(t.sources.get(0));
      for (int k : candidates.apply(t.file, mine)) {
        DatasetServer s = sourceServers[t.file][k];
        if (s == t.servers.get(0) || !s.usable(now) || s.running > 0) {
          continue; // only an idle server: a busy one would slow its own files
        }
        long at = next + together(own, stop - next, s.requestRate(fallback), s.latency(now));
        if (stop - at < MIN_PIECE) {
          continue;
        }
        double g = left - own.applyAsDouble(at - next);
        if (g > gain) {
          pick = t;
          pickSource = k;
          pickAt = at;
          pickEnd = left - g;
          gain = g;
        }
      }
    }
    if (pick == null) {
      return null;
    }
    DatasetTask owner = pick.owner;
    // stalled and keeping nothing more: it stops where it is, its read ended at once
    boolean here = pickAt == pick.from + pick.received && silentSeconds(pick, now) > 0;
    DatasetTask piece =
        new DatasetTask(
            pick,
            files.get(pick.file).sources().get(pickSource),
            sourceServers[pick.file][pickSource],
            pickAt,
            pick.stop(),
            now);
    if (owner.split == null) {
      owner.split = new DatasetSplit();
    }
    owner.split.add(piece);
    if (here ? !pick.cutHere(pickAt) : !pick.cut(pickAt)) {
      owner.split.withdraw(piece); // it passed the point meanwhile: nothing to hand over
      return null;
    }
    double silent = silentSeconds(pick, now);
    LOG.info(
        "[{}] {}: bytes {}-{} taken over by {} from {} ({}done together in {} s)",
        id,
        DatasetNames.shown(files.get(pick.file).path()),
        pickAt,
        piece.stop(),
        piece.servers.get(0).key,
        pick.servers.get(0).key,
        silent > 0 ? "stalled for " + String.format(Locale.ROOT, "%.2f", silent) + " s, " : "",
        String.format(Locale.ROOT, "%.2f", pickEnd));
    return piece;
  }

  /**
   * Seconds the running task needs for a number of bytes more: shared with its server's other
   * running tasks once the server's rate is measured ({@link DatasetEstimates#sharedSeconds}), or
   * at its own mean rate so far if that is faster (or the server's rate is not known yet).
   */
  private DoubleUnaryOperator ownSeconds(DatasetTask t, double mean, double fallback) {
    if (!t.servers.get(0).measuredEnough()) {
      return b -> b / mean;
    }
    return b -> Math.min(b / mean, estimates.sharedSeconds(t, b, fallback));
  }

  /**
   * Bytes of the {@code left} the running task keeps so that it ends when an idle server (rate
   * {@code r}, request latency {@code lat}) ends the rest: where {@code own(x) = lat + (left - x) /
   * r}; {@code own} grows with x, the other side shrinks, so a bisection finds it (to the byte).
   */
  static long together(DoubleUnaryOperator own, long left, double r, double lat) {
    long lo = 0;
    long hi = left;
    if (own.applyAsDouble(0) >= lat + left / r) {
      return 0;
    }
    while (hi - lo > 1) {
      long mid = (lo + hi) >>> 1;
      if (own.applyAsDouble(mid) < lat + (left - mid) / r) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** A task is cut only once its rate has been measured this long. */
  static final long SPLIT_AFTER_NANOS = 100_000_000L;

  /**
   * A running task that has received nothing for this long is stalled: on the testbed's shaped
   * links a request in TCP's retransmission timeout (200 ms at least, then doubling) sent nothing
   * for 0.1-0.3 s at a time at the job's tail, while its server stood otherwise idle and the job
   * waited on it.
   */
  static final long STALL_NANOS = 100_000_000L;

  /**
   * Seconds the running task has been silent if it is stalled ({@link #STALL_NANOS} or more since
   * its latest bytes), else 0. A stalled request is expected to stay silent about as long again (a
   * retransmission timeout doubles each time it fires), so the split counts that time before its
   * rest and hands the idle server more of the file, all of it from the bytes already received when
   * that ends sooner: the stalled request then stops where it is.
   */
  static double silentSeconds(DatasetTask t, long now) {
    long last = t.lastByteNanos;
    long silent = now - last;
    return last < 0 || silent < STALL_NANOS ? 0 : silent / 1e9;
  }

  /**
   * A second copy of the slowest single-server file at the tail, or null: from an idle server that
   * would finish it in less than half the time the running copy still needs. A server still busy
   * with other files gets no copy: the copy would compete with them and fetch the same bytes a
   * second time over a link the job still needs (the 1,000-file set's tail lost up to 10 MB that
   * way, 0.5 s of its fastest mirror).
   *
   * @param candidates the usable sources of a file except one (file, except)
   */
  DatasetTask duplicate(
      List<DatasetTask> running, BiFunction<Integer, Integer, List<Integer>> candidates, long now) {
    double fallback = estimates.fallbackRate();
    DatasetTask pick = null;
    int pickSource = -1;
    double gain = 0;
    for (DatasetTask t : running) {
      if (t.mode != DatasetTask.Mode.SINGLE
          || t.duplicate
          || t.twin != null
          || t.split != null
          || t.cancelled
          || t.size < 0) {
        continue; // co-allocated, split, a copy already, or done by its copy and being stopped
      }
      if (t.received > 0 && now - t.firstByteNanos < SPLIT_AFTER_NANOS) {
        continue; // its rate is about to be known: its rest is split rather than copied whole
      }
      double left = DatasetEstimates.secondsLeft(t, now, fallback);
      if (t.received > 0 && t.servers.get(0).measuredEnough()) {
        // as the split counts it: the server's other files end and leave this one the link (by
        // its mean alone, a file slowed by many small ones at the tail was copied to the 10
        // Mbit/s mirror 0.16 s before its first copy ended)
        left = Math.min(left, estimates.sharedSeconds(t, t.bytesLeft(0), fallback));
      }
      if (left < 1.0) {
        continue;
      }
      int own = files.get(t.file).sources().indexOf(t.sources.get(0));
      for (int k : candidates.apply(t.file, own)) {
        DatasetServer s = sourceServers[t.file][k];
        if (s == t.servers.get(0) || !s.usable(now) || s.running > 0) {
          continue; // a copy on a busy server slows its files and costs its link the bytes twice
        }
        double c = estimates.completion(s, t.size, fallback, now);
        if (c < 0.5 * left && left - c > gain) {
          pick = t;
          pickSource = k;
          gain = left - c;
        }
      }
    }
    if (pick == null) {
      return null;
    }
    DatasetTask d =
        new DatasetTask(
            pick.file,
            DatasetTask.Mode.SINGLE,
            List.of(files.get(pick.file).sources().get(pickSource)),
            List.of(sourceServers[pick.file][pickSource]),
            true,
            pick.size,
            now);
    d.twin = pick;
    pick.twin = d;
    LOG.info(
        "[{}] {} is slow on {}: fetching it again from {}",
        id,
        DatasetNames.shown(files.get(pick.file).path()),
        pick.servers.get(0).key,
        d.servers.get(0).key);
    return d;
  }
}
