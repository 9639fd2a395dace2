package org.braid.coalloc;

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
 * finish last ({@link #steals()}).
 */
final class Adaptive extends BlockPolicy {
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
