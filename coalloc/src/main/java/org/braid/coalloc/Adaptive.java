package org.braid.coalloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Braid's default scheme: aggressive balancing seeded from predicted rates that never waits on a
 * slow replica at the end.
 *
 * <p>An idle flow takes {@code ALPHA * T * r} bytes from the pool, where {@code r} is its rate
 * (predicted until measured) and {@code T} the time the whole remainder would take at the summed
 * rate of all live flows: faster flows get proportionally larger blocks and blocks shrink
 * geometrically towards the end (guided self-scheduling weighted by rate), so few requests are
 * needed. A block is never smaller than {@link #MIN_BLOCK} nor than 20 request latencies' worth of
 * bytes, which keeps the request overhead near 5% at worst and makes co-allocating a small file no
 * slower than the best replica alone. A block sized for a rate its flow no longer shows (a mirror
 * that slowed down) is cut back to what the flow would be given now, and the rest returns to the
 * front of the pool ({@link #keepOf}): the others fetch it next, so the leading bytes keep arriving
 * in order and a whole-file hash is not left with most of the file to read after the last byte.
 * Once the pool is empty the scheduler lets idle flows split or duplicate the block that would
 * finish last ({@link #steals()}). At memory speed, when the process has been using every core,
 * only the fastest flows are given new blocks ({@link #mayUse}).
 */
final class Adaptive extends BlockPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(Adaptive.class);

  /** Fraction of a flow's fair share of the remaining time given per request. */
  static final double ALPHA = 0.7;

  /** Fraction of the file per flow for the first request when no rate is known. */
  static final double UNKNOWN_FIRST = 0.25;

  /** Below this many seconds at the predicted rates a file counts as small. */
  static final double SMALL_SECONDS = 2;

  /** Smallest block of a small file's proportional split. */
  static final long SMALL_MIN_BLOCK = 16 * 1024;

  /** Smallest block. */
  static final long MIN_BLOCK = 256 * 1024;

  /** A block carries at least this many request latencies' worth of bytes. */
  static final double LATENCY_FACTOR = 20;

  /**
   * A running block is cut back once what is left of it is this many times the block its flow would
   * be given now. With steady rates what is left never exceeds a new block ({@code ALPHA < 1}), so
   * only a real slow-down cuts, and measurement noise does not.
   */
  static final double CUT_FACTOR = 2;

  /**
   * Largest block while the flows together deliver at least {@link #FAST_TOTAL} bytes per second,
   * unless the flow's request latency asks for more ({@link #CAP_LATENCIES}). The whole-file hash
   * reads the file in order, as far as the leading bytes are written: with blocks of a quarter of
   * the file per flow at memory speed the first block arrived only as fast as its one flow
   * delivered it, and most of a 2 GB file was left to hash after the last byte (issue 17). Blocks
   * of at most this size, taken in file order by all flows, keep the written prefix a few blocks
   * behind the fetching. Slower downloads keep their larger blocks: their hash keeps up anyway.
   */
  static final long MAX_BLOCK = 32L << 20;

  /** Summed rate of the live flows, bytes per second, from which blocks are capped. */
  static final double FAST_TOTAL = 100e6;

  /**
   * A capped block still carries at least this many request latencies' worth of bytes: the round
   * trip between two blocks costs a flow at most 1% of its time.
   */
  static final double CAP_LATENCIES = 100;

  /**
   * Summed rate of the live flows, bytes per second, from which a busy CPU ({@link CpuBudget}) is
   * taken to be what limits the download: 2 Gbit/s, far above any WAN link and above what one core
   * hashes with SHA-256 without SHA extensions.
   */
  static final double CPU_BOUND_TOTAL = 250e6;

  /**
   * Fewest bytes left for the CPU-bound limit to be worth deciding ({@link #mayUse}): eight capped
   * blocks. A smaller remainder at memory speed is over within a fraction of a second.
   */
  static final long CPU_BOUND_REMAINING = 8 * MAX_BLOCK;

  private final CpuBudget cpu;

  /**
   * After choosing, how long the chosen flows have to show that they deliver at memory speed on
   * their own (the rates are averages over 2 s, and a flow given more of the CPU speeds up).
   */
  static final long SETTLE_NANOS = 1_000_000_000L;

  /** The flows chosen to go on once the download turned out CPU-bound; null: every flow. */
  private List<Flow> chosen;

  /**
   * The share of the rate at the choice that the chosen flows must deliver on their own once
   * settled, or every flow comes back.
   */
  static final double KEEP_SHARE = 0.5;

  /** When they were chosen (scheduler clock), and what all flows delivered then. */
  private long chosenAt;

  private double totalAtChoice;

  /** Whether a choice was given up: every flow fetches for the rest of the download. */
  private boolean released;

  /** The default scheme without a CPU measurement (every flow always fetches). */
  Adaptive() {
    this(CpuBudget.NONE);
  }

  /** The default scheme that measures the process's CPU use with {@code cpu}. */
  Adaptive(CpuBudget cpu) {
    this.cpu = cpu;
  }

  /**
   * Every flow may fetch, until every live flow has a measured rate and together they deliver
   * {@link #CPU_BOUND_TOTAL} while the CPU is busy ({@link CpuBudget#busy}) and at least {@link
   * #CPU_BOUND_REMAINING} bytes are left: from then on only the fastest {@link
   * CpuBudget#connectionsWhenBusy} flows get new blocks (one on two cores: the other core hashes);
   * the others finish what they hold and stay idle. Issue 17: on two cores, four local mirrors cost
   * more CPU than one and left the whole-file hash without a core of its own. Every flow comes
   * back, for the rest of the download, when a chosen flow's replica is dropped or when the chosen
   * flows deliver less than {@link #CPU_BOUND_TOTAL} once {@link #SETTLE_NANOS} have passed (their
   * replicas, not the CPU, were what limited them: a fast LAN's disk-bound servers).
   */
  @Override
  boolean mayUse(Flow f, PolicyView s, long now) {
    if (chosen != null) {
      if (!keepChoice(now, s)) {
        chosen = null;
        released = true;
        return true;
      }
      return chosen.contains(f);
    }
    int keep = cpu.connectionsWhenBusy();
    if (released || s.remainingBytes() < CPU_BOUND_REMAINING) {
      return true;
    }
    List<Flow> live = new ArrayList<>();
    double total = 0;
    for (Flow g : s.flows()) {
      if (!g.replica.dropped) {
        if (!g.measured) {
          // a guess is no ground for leaving a replica out (nor for choosing it)
          return true;
        }
        live.add(g);
        total += s.rateOf(g, now);
      }
    }
    if (live.size() <= keep || total < CPU_BOUND_TOTAL || !cpu.busy()) {
      return true;
    }
    live.sort(Comparator.comparingDouble((Flow g) -> s.rateOf(g, now)).reversed());
    chosen = List.copyOf(live.subList(0, keep));
    chosenAt = now;
    totalAtChoice = total;
    LOG.debug(
        "CPU-bound at {} MB/s on {} cores: {} of {} connections go on",
        Math.round(total / 1e6),
        cpu.cores(),
        keep,
        live.size());
    return chosen.contains(f);
  }

  /** Whether the chosen flows go on alone: none dropped, and fast enough once settled. */
  private boolean keepChoice(long now, PolicyView s) {
    if (chosen.stream().anyMatch(g -> g.replica.dropped)) {
      LOG.debug("a replica of the chosen connections was dropped: every connection fetches again");
      return false;
    }
    if (now - chosenAt < SETTLE_NANOS) {
      return true;
    }
    double rate = 0;
    for (Flow g : chosen) {
      rate += Math.max(s.rateOf(g, now), g.recent);
    }
    if (rate < KEEP_SHARE * totalAtChoice) {
      LOG.debug(
          "the chosen connections deliver {} of {} MB/s: every connection fetches again",
          Math.round(rate / 1e6),
          Math.round(totalAtChoice / 1e6));
      return false;
    }
    return true;
  }

  /** The flows chosen to go on because the download is CPU-bound; empty while every flow may. */
  List<Flow> chosen() {
    return chosen == null ? List.of() : chosen;
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return blockSize(f, s.rateOf(f, now), s, now);
  }

  private long blockSize(Flow f, double rf, PolicyView s, long now) {
    long remaining = s.remainingBytes();
    double total = 0;
    int alive = 0;
    for (Flow g : s.flows()) {
      if (!g.replica.dropped) {
        total += s.rateOf(g, now);
        alive++;
      }
    }
    long size;
    if (rf <= 0 || total <= 0) {
      size = (long) (remaining * UNKNOWN_FIRST / Math.max(1, alive));
    } else if (!f.measured && allPredicted(s) && remaining / total <= SMALL_SECONDS) {
      // a small file with a plan: one request per flow in proportion to the predictions
      // finishes in L + S / sum(B_i), never later than L + S / max(B_i) from the best alone
      long share = (long) Math.ceil(remaining * rf / total);
      return Math.max(SMALL_MIN_BLOCK, Math.min(share, cap(f, rf, total)));
    } else {
      size = (long) (ALPHA * remaining * rf / total);
    }
    long latencyBytes =
        f.latencyNanos > 0 ? (long) (rf * f.latencyNanos / 1e9 * LATENCY_FACTOR) : 0;
    return Math.max(Math.min(size, cap(f, rf, total)), Math.max(MIN_BLOCK, latencyBytes));
  }

  /**
   * The largest block for a flow at rate {@code rf} when the live flows deliver {@code total} bytes
   * per second together: {@link #MAX_BLOCK} (or {@link #CAP_LATENCIES} of the flow's request
   * latency, if more) from {@link #FAST_TOTAL} on, else no cap.
   */
  static long cap(Flow f, double rf, double total) {
    if (total < FAST_TOTAL || rf <= 0) {
      return Long.MAX_VALUE;
    }
    return Math.max(MAX_BLOCK, (long) (rf * Math.max(0, f.latencyNanos) / 1e9 * CAP_LATENCIES));
  }

  @Override
  long keepOf(Flow f, long remaining, PolicyView s, long now) {
    if (!f.measured) {
      return -1;
    }
    // the rate of the last sample window: the moving average lags a sudden slow-down by seconds
    double rf = s.rateOf(f, now);
    long keep = blockSize(f, f.recent > 0 ? Math.min(rf, f.recent) : rf, s, now);
    return remaining > CUT_FACTOR * keep && remaining - keep >= MIN_BLOCK ? keep : -1;
  }

  private static boolean allPredicted(PolicyView s) {
    return s.flows().stream().allMatch(g -> g.replica.dropped || g.replica.predictedRate > 0);
  }

  /** Once rates are measured, a sliver under half a minimum block goes with the block. */
  @Override
  long absorbBelow(Flow f) {
    return f.measured ? MIN_BLOCK / 2 : 0;
  }

  @Override
  boolean steals() {
    return true;
  }
}
