package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of a download: asks every replica at once (a thread each) for its size and
 * validators, takes the size most of them report, then the version their published checksums agree
 * on ({@link SourceChecksums}), and marks the others dropped with the reason.
 */
final class Prober {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private Prober() {}

  /**
   * What the probes found.
   *
   * @param size the file size most replicas report
   * @param replicas every replica in source order, those that failed or disagree dropped
   * @param validators the validators of the usable replicas, in source order
   * @param published the checksums the replicas publish and agree on, for algorithms the user gave
   *     none of: the file is verified against them
   */
  record Probed(
      long size,
      List<Replica> replicas,
      Map<URI, Validators> validators,
      List<Checksum> published) {}

  /** One replica's answer: its validators, or the reason it has none. */
  private record Answer(Validators validators, String error) {}

  /**
   * Probes the sources, one per URL. The file's size is the one the guards declare, else the one
   * most replicas report.
   *
   * @param expected the user's checksums: a replica publishing another value is dropped
   * @throws DownloadException if no replica is usable, with every reason
   */
  static Probed probe(
      String id,
      List<URI> uris,
      List<RangeSource> sources,
      ToDoubleFunction<URI> rate,
      List<Checksum> expected,
      Ticker ticker,
      Duration limit,
      Guards guards)
      throws DownloadException {
    long probeStart = ticker.read();
    List<Answer> answers = askAll(id, sources, limit, guards);
    LOG.debug(
        "[{}] probed {} replicas in {} ms",
        id,
        sources.size(),
        (ticker.read() - probeStart) / 1_000_000);
    long declared = guards.expectedSize();
    long size =
        declared >= 0 ? declared : majoritySize(answers.stream().map(Answer::validators).toList());
    List<Replica> replicas = new ArrayList<>();
    Map<URI, Validators> validators = new LinkedHashMap<>();
    for (int i = 0; i < answers.size(); i++) {
      URI u = uris.get(i);
      Validators v = answers.get(i).validators();
      Replica r = new Replica(i, u, rate.applyAsDouble(u));
      if (v == null) {
        r.dropped = true;
        r.dropReason = answers.get(i).error();
      } else if (v.size() != size) {
        r.dropped = true;
        r.dropReason =
            u
                + ": serves "
                + v.size()
                + " bytes, "
                + (declared >= 0 ? "the catalog declares " : "the other replicas ")
                + size;
      } else {
        validators.put(u, v);
        r.wholeFile = !v.ranges();
      }
      replicas.add(r);
    }
    SourceChecksums.Agreement agreed = SourceChecksums.agree(expected, validators);
    for (Replica r : replicas) {
      String other = agreed.dropped().get(r.uri);
      if (other != null) {
        r.dropped = true;
        r.dropReason = other;
        validators.remove(r.uri);
      }
    }
    if (!validators.isEmpty()) {
      // said once: here when the download goes on without it, else in the exception below
      for (Replica r : replicas) {
        if (r.dropped) {
          LOG.warn("[{}] not using {}", id, r.dropReason);
        }
      }
    } else {
      StringBuilder sb = new StringBuilder("no usable replica:");
      for (Replica r : replicas) {
        sb.append(' ').append(r.dropReason).append(';');
      }
      // every replica answered and none has the declared size: the data is not what was promised
      boolean allAnswered = answers.stream().allMatch(a -> a.validators() != null);
      throw new DownloadException(
          sb.substring(0, sb.length() - 1),
          null,
          allAnswered ? DownloadException.Kind.VERIFICATION : DownloadException.Kind.NETWORK);
    }
    return new Probed(size, replicas, validators, agreed.published());
  }

  /**
   * Every source's answer, in order, waiting at most {@code limit} (plus a second, so that a
   * source's own time limit is the one reported); a source that has not answered by then, or when
   * this thread is interrupted, has an error saying so.
   */
  private static List<Answer> askAll(
      String id, List<RangeSource> sources, Duration limit, Guards guards) {
    AtomicReferenceArray<Answer> answers = new AtomicReferenceArray<>(sources.size());
    long until = System.nanoTime() + limit.toNanos();
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      int k = i;
      Thread t =
          new Thread(
              () -> answers.set(k, ask(sources.get(k), guards, until)),
              "braid-" + id + "-probe" + i);
      t.setDaemon(true);
      ts.add(t);
      t.start();
    }
    long deadline = System.nanoTime() + limit.toNanos() + TimeUnit.SECONDS.toNanos(1);
    try {
      for (Thread t : ts) {
        long left = deadline - System.nanoTime();
        if (left > 0) {
          t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Answer> out = new ArrayList<>();
    for (int i = 0; i < answers.length(); i++) {
      Answer a = answers.get(i);
      out.add(
          a != null
              ? a
              : new Answer(
                  null,
                  sources.get(i).uri()
                      + ": no answer to the probe within "
                      + limit.toSeconds()
                      + " s"));
    }
    return out;
  }

  /**
   * Probes the source; a server that asks to retry later ({@code Retry-After} within the guards'
   * limit) is asked again after that delay, up to the guards' tries, while that ends before {@code
   * untilNanos}.
   */
  private static Answer ask(RangeSource source, Guards guards, long untilNanos) {
    try {
      for (int tries = 1; ; tries++) {
        try {
          return new Answer(source.probe(), null);
        } catch (SourceException e) {
          Duration wait = e.retryAfter();
          if (!e.retryable()
              || wait == null
              || tries >= guards.maxTries()
              || wait.compareTo(guards.maxRetryAfter()) > 0
              || System.nanoTime() + wait.toNanos() - untilNanos > 0) {
            throw e;
          }
          LOG.info(
              "{}: retrying the probe in {} s as the server asks", source.uri(), wait.toSeconds());
          Thread.sleep(Math.max(1, wait.toMillis()));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(null, source.uri() + ": probe interrupted");
    } catch (IOException | RuntimeException e) {
      String m = OneLine.of(e);
      String u = source.uri().toString();
      return new Answer(null, m.startsWith(u) ? m : u + ": " + m);
    }
  }

  /**
   * The size most replicas report; on a tie, one reported by a replica that serves ranges (a whole
   * range server is worth more than a whole-file one, and a Content-Range total is what it says),
   * then the one reported by the earliest replica.
   */
  static long majoritySize(List<Validators> probed) {
    Map<Long, Integer> count = new HashMap<>();
    Map<Long, Boolean> ranged = new HashMap<>();
    for (Validators v : probed) {
      if (v != null) {
        count.merge(v.size(), 1, Integer::sum);
        ranged.merge(v.size(), v.ranges(), Boolean::logicalOr);
      }
    }
    long best = -1;
    int bestCount = 0;
    boolean bestRanged = false;
    for (Validators v : probed) {
      if (v == null) {
        continue;
      }
      int c = count.get(v.size());
      boolean r = ranged.get(v.size());
      if (c > bestCount || (c == bestCount && r && !bestRanged)) {
        best = v.size();
        bestCount = c;
        bestRanged = r;
      }
    }
    return best;
  }
}
