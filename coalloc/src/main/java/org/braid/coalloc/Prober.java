package org.braid.coalloc;

import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * One replica's answer: its validators, or the reason it has none; with the data of its first
   * request when that was folded into the probe and brought exactly the bytes asked for.
   */
  record Answer(Validators validators, String error, ReadableByteChannel data) {
    Answer(Validators validators, String error) {
      this(validators, error, null);
    }
  }

  /**
   * Decides the size and the replicas from the answers, in source order; a null answer is a replica
   * still being asked: it is neither dropped nor given validators, and is judged by {@link
   * #judgeLate} when its answer comes. The size is the one the guards declare, else the one most
   * replicas report.
   *
   * @throws DownloadException if no replica is usable, with every reason
   */
  static Probed decide(
      String id,
      List<URI> uris,
      List<Answer> answers,
      ToDoubleFunction<URI> rate,
      List<Checksum> expected,
      Guards guards)
      throws DownloadException {
    long declared = guards.expectedSize();
    long size =
        declared >= 0
            ? declared
            : majoritySize(answers.stream().map(a -> a == null ? null : a.validators()).toList());
    List<Replica> replicas = new ArrayList<>();
    Map<URI, Validators> validators = new LinkedHashMap<>();
    for (int i = 0; i < answers.size(); i++) {
      URI u = uris.get(i);
      Answer a = answers.get(i);
      Replica r = new Replica(i, u, rate.applyAsDouble(u));
      String why = a == null ? null : unusable(u, a, size, declared);
      if (why != null) {
        r.dropped = true;
        r.dropReason = why;
      } else if (a != null) {
        validators.put(u, a.validators());
        r.wholeFile = !a.validators().ranges();
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
      boolean allAnswered = answers.stream().allMatch(a -> a != null && a.validators() != null);
      throw new DownloadException(
          sb.substring(0, sb.length() - 1),
          null,
          allAnswered ? DownloadException.Kind.VERIFICATION : DownloadException.Kind.NETWORK);
    }
    return new Probed(size, replicas, validators, agreed.published());
  }

  /** Why the replica's answer cannot be used for a file of {@code size} bytes, or null. */
  private static String unusable(URI u, Answer a, long size, long declared) {
    Validators v = a.validators();
    if (v == null) {
      return a.error();
    }
    if (v.size() != size) {
      return u
          + ": serves "
          + v.size()
          + " bytes, "
          + (declared >= 0 ? "the catalog declares " : "the other replicas ")
          + size;
    }
    return null;
  }

  /**
   * Whether the answers so far let the download start: a size the guards declare (which at least
   * one replica has), with {@code onChecksum} any answer when the user gave a whole-file checksum
   * (it verifies the file whatever size the download starts with; a later majority for another size
   * overrules the start, see {@link SizeVotes} and {@link Engine#START_ON_CHECKSUM}), or else a
   * size reported by more than half of all the replicas; while no replica that answered publishes a
   * checksum of an algorithm the user gave none of (the version those name is chosen by all the
   * replicas together). A null answer is one still awaited.
   */
  static boolean settled(
      List<Answer> answers, Guards guards, List<Checksum> expected, boolean onChecksum) {
    Map<Long, Integer> count = new HashMap<>();
    for (Answer a : answers) {
      if (a == null || a.validators() == null) {
        continue;
      }
      boolean agrees = true;
      for (Checksum c : a.validators().checksums()) {
        Checksum e =
            expected.stream()
                .filter(x -> x.algorithm().equals(c.algorithm()))
                .findFirst()
                .orElse(null);
        if (e == null) {
          return false;
        }
        agrees &= e.hex().equals(c.hex());
      }
      if (agrees) {
        count.merge(a.validators().size(), 1, Integer::sum);
      }
    }
    long declared = guards.expectedSize();
    if (declared >= 0) {
      return count.containsKey(declared);
    }
    if (onChecksum && !expected.isEmpty()) {
      return !count.isEmpty();
    }
    return count.values().stream().anyMatch(c -> 2 * c > answers.size());
  }

  /**
   * Judges the answer of a replica that came after the download started with {@code probed}: null
   * if it can join (its checksums, of an algorithm none of the others published, are added to
   * {@code published}), else why not. {@code accepted} holds the validators of the replicas in use,
   * in the order they joined; a tie between published checksums goes to them.
   */
  static String judgeLate(
      URI u,
      Answer a,
      long size,
      Guards guards,
      List<Checksum> expected,
      Map<URI, Validators> accepted,
      List<Checksum> published) {
    String why = unusable(u, a, size, guards.expectedSize());
    if (why != null) {
      return why;
    }
    // the newcomer last: on a tie, the value of the replicas already in use wins
    Map<URI, Validators> all = new LinkedHashMap<>(accepted);
    all.put(u, a.validators());
    SourceChecksums.Agreement agreed = SourceChecksums.agree(expected, all);
    String other = agreed.dropped().get(u);
    if (other != null) {
      return other;
    }
    for (Checksum c : agreed.published()) {
      if (published.stream().noneMatch(p -> p.algorithm().equals(c.algorithm()))) {
        published.add(c);
      }
    }
    return null;
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
