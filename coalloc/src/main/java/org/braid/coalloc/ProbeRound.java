package org.braid.coalloc;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every replica at once (a thread each) for its size and validators, with the probe folded
 * into a first data request where a range is given ({@link RangeSource#openFirst}), and collects
 * the answers as they come: all of them ({@link #awaitAll}), or one at a time ({@link #next}).
 * Every answer is in by the deadline: the probe time limit plus a second, so that a source's own
 * time limit is the one reported; a source that has not answered by then has an error saying so.
 * Thread-safe.
 */
final class ProbeRound {
  // logs under the download's name, as the probe always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final List<RangeSource> sources;
  private final Duration limit;
  private final AtomicReferenceArray<Prober.Answer> answers;
  private final LinkedBlockingQueue<Integer> arrived = new LinkedBlockingQueue<>();

  /**
   * By source, nanoseconds from sending the request that was answered to its answer; -1 if none.
   */
  private final AtomicLongArray took;

  /**
   * By source, when ({@link System#nanoTime}) its request now awaiting an answer was sent; {@link
   * #NOT_SENT} before that.
   */
  private final AtomicLongArray sent;

  private static final long NOT_SENT = Long.MIN_VALUE;

  private final long deadline;

  private ProbeRound(List<RangeSource> sources, Duration limit) {
    this.sources = sources;
    this.limit = limit;
    this.answers = new AtomicReferenceArray<>(sources.size());
    this.took = new AtomicLongArray(sources.size());
    this.sent = new AtomicLongArray(sources.size());
    for (int i = 0; i < sources.size(); i++) {
      took.set(i, -1);
      sent.set(i, NOT_SENT);
    }
    this.deadline = System.nanoTime() + limit.toNanos() + TimeUnit.SECONDS.toNanos(1);
  }

  /**
   * Starts asking: source {@code i} with a first request for {@code first.get(i)} when {@code
   * first} (or null) has a range for it, else with a probe.
   */
  static ProbeRound start(
      String id, List<RangeSource> sources, List<ByteRange> first, Duration limit, Guards guards) {
    ProbeRound round = new ProbeRound(sources, limit);
    long until = System.nanoTime() + limit.toNanos();
    for (int i = 0; i < sources.size(); i++) {
      int k = i;
      ByteRange r = first == null || i >= first.size() ? null : first.get(i);
      Thread t =
          new Thread(
              () -> {
                long[] took = {-1};
                Prober.Answer a = ask(sources.get(k), r, guards, until, took, round.sent, k);
                round.took.set(k, a.error() == null ? took[0] : -1);
                round.answers.set(k, a);
                round.arrived.add(k);
                if (a.data() instanceof FirstData d) {
                  d.fill();
                }
              },
              "braid-" + id + "-probe" + i);
      t.setDaemon(true);
      t.start();
    }
    return round;
  }

  /** Every source's answer, in order, once all are in or the deadline passed. */
  List<Prober.Answer> awaitAll() {
    while (true) {
      List<Prober.Answer> now = snapshot();
      if (!now.contains(null) || next() < 0) {
        return withTimeouts(snapshot());
      }
    }
  }

  /**
   * Waits for the next answer, at most until the deadline: its source's index, or -1 if none came
   * (the deadline passed or this thread was interrupted).
   */
  int next() {
    return next(deadline - System.nanoTime());
  }

  /** As {@link #next()}, waiting at most {@code nanos} (and never past the deadline). */
  int next(long nanos) {
    long wait = Math.min(nanos, deadline - System.nanoTime());
    try {
      Integer i = wait > 0 ? arrived.poll(wait, TimeUnit.NANOSECONDS) : arrived.poll();
      return i == null ? -1 : i;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Whether the deadline passed. */
  boolean expired() {
    return System.nanoTime() - deadline >= 0;
  }

  /** The answers so far, in source order; null for one not in yet. */
  List<Prober.Answer> snapshot() {
    List<Prober.Answer> out = new ArrayList<>();
    for (int i = 0; i < answers.length(); i++) {
      out.add(answers.get(i));
    }
    return out;
  }

  /**
   * Nanoseconds from sending source {@code i}'s answered request (the last try, after any {@code
   * Retry-After} wait) to its answer: connecting and one round trip, plus the server's own time; -1
   * while it has no good answer.
   */
  long answerNanos(int i) {
    return took.get(i);
  }

  /**
   * A lower bound on the median answer time of the round ({@link #answerNanos}; the lower one of an
   * even count) once every source has answered: the median of the answers in so far and, for each
   * source still to answer, the time its request has waited (its answer takes at least that long).
   * Failed sources do not count. 0 if none counts.
   */
  long medianAtLeast() {
    return medianAtLeast(answered(), waiting(System.nanoTime()));
  }

  /**
   * Whether the sources are distant: true once the median answer time ({@link #medianAtLeast}) is
   * sure to be {@code far} or more, false once it is sure to be less, null while it could be
   * either.
   */
  Boolean distant(long far) {
    return distant(answered(), waiting(System.nanoTime()), far);
  }

  /**
   * Nanoseconds from now until {@link #distant} can change without an answer coming: until the
   * request that has waited longest has waited {@code far}; 0 if none waits.
   */
  long untilDistant(long far) {
    List<Long> w = waiting(System.nanoTime());
    return w.isEmpty()
        ? 0
        : Math.max(0, far - w.stream().mapToLong(Long::longValue).max().orElse(0));
  }

  private List<Long> answered() {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < took.length(); i++) {
      if (took.get(i) >= 0 && answers.get(i) != null) {
        out.add(took.get(i));
      }
    }
    return out;
  }

  private List<Long> waiting(long now) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < answers.length(); i++) {
      if (answers.get(i) == null) {
        long s = sent.get(i);
        out.add(s == NOT_SENT ? 0 : Math.max(0, now - s));
      }
    }
    return out;
  }

  /**
   * The lower median of {@code answered} (answer times) and {@code waiting} (how long each request
   * still to be answered has waited, a lower bound on its answer time); 0 if both are empty.
   */
  static long medianAtLeast(List<Long> answered, List<Long> waiting) {
    List<Long> all = new ArrayList<>(answered);
    all.addAll(waiting);
    all.sort(null);
    return all.isEmpty() ? 0 : all.get((all.size() - 1) / 2);
  }

  /**
   * Whether the final median answer time will be {@code far} or more: true once the lower bound
   * {@link #medianAtLeast} reaches it, false once that median is an answer already in and below it
   * (later answers only add values at or above the time waited), null while undecided. With no
   * source left to count (every one failed), false.
   */
  static Boolean distant(List<Long> answered, List<Long> waiting, long far) {
    int n = answered.size() + waiting.size();
    if (n == 0) {
      return false;
    }
    if (medianAtLeast(answered, waiting) >= far) {
      return true;
    }
    long near = answered.stream().filter(t -> t < far).count();
    return near > (n - 1) / 2 ? false : null;
  }

  /** Source {@code i}'s answer, or null if not in yet. */
  Prober.Answer answer(int i) {
    return answers.get(i);
  }

  /** The error of a source that did not answer in time. */
  Prober.Answer timedOut(int i) {
    return new Prober.Answer(
        null, sources.get(i).uri() + ": no answer to the probe within " + limit.toSeconds() + " s");
  }

  private List<Prober.Answer> withTimeouts(List<Prober.Answer> now) {
    List<Prober.Answer> out = new ArrayList<>();
    for (int i = 0; i < now.size(); i++) {
      out.add(now.get(i) != null ? now.get(i) : timedOut(i));
    }
    return out;
  }

  /**
   * Probes the source, or sends it the first request; a server that asks to retry later ({@code
   * Retry-After} within the guards' limit) is asked again after that delay, up to the guards'
   * tries, while that ends before {@code untilNanos}. {@code took[0]} is set to the nanoseconds the
   * answered try took.
   */
  private static Prober.Answer ask(
      RangeSource source,
      ByteRange first,
      Guards guards,
      long untilNanos,
      long[] took,
      AtomicLongArray sentAt,
      int index) {
    try {
      for (int tries = 1; ; tries++) {
        long sent = System.nanoTime();
        sentAt.set(index, sent);
        try {
          if (first == null) {
            Validators v = source.probe();
            took[0] = System.nanoTime() - sent;
            return new Prober.Answer(v, null);
          }
          RangeSource.First f = source.openFirst(first.start(), first.length());
          took[0] = System.nanoTime() - sent;
          return new Prober.Answer(
              f.validators(),
              null,
              f.data() == null ? null : new FirstData(f.data(), (int) first.length()));
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
      return new Prober.Answer(null, source.uri() + ": probe interrupted");
    } catch (IOException | RuntimeException e) {
      String m = OneLine.of(e);
      String u = source.uri().toString();
      return new Prober.Answer(null, m.startsWith(u) ? m : u + ": " + m);
    }
  }

  /** Closes the data of an answer that will not be read. */
  static void discard(Prober.Answer a) {
    ReadableByteChannel d = a == null ? null : a.data();
    if (d != null) {
      try {
        d.close();
      } catch (IOException e) {
        // dropped anyway
      }
    }
  }
}
