package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A replica's connections are renewed when its delivered rate rises (a link with room its warm
 * connections do not use: BBR raising its estimate by a quarter every eight round trips), never on
 * a steady or falling rate, a recovery from a dip or a near replica, not during the replica's own
 * start, one renewal at a time.
 */
class RateRiseTest {
  private static final long MS = 1_000_000;
  private static final long RTT = 200 * MS;

  /** Feeds {@code bytesPerSecond} in 10 ms reads from {@code from} to {@code to}. */
  private static void feed(RateRise r, double bytesPerSecond, long from, long to) {
    for (long t = from; t < to; t += 10 * MS) {
      r.received((long) (bytesPerSecond * 0.01), t);
    }
  }

  /** Claims every 50 ms from {@code from} to {@code to} at {@code bytesPerSecond}: first claim. */
  private static long firstClaim(RateRise r, double bytesPerSecond, long from, long to) {
    for (long t = from; t < to; t += 50 * MS) {
      feed(r, bytesPerSecond, t, t + 50 * MS);
      if (r.claim(RTT, t + 50 * MS)) {
        return t + 50 * MS;
      }
    }
    return -1;
  }

  @Test
  void steadyRate_neverClaims_evenWithBurstyArrivals() {
    RateRise r = new RateRise();
    Random rnd = new Random(7);
    for (long t = 0; t < 30_000 * MS; t += 10 * MS) {
      // a 10 Mbit/s link delivering in per-round-trip bursts: +-60% per read
      r.received((long) (12_500 * (0.4 + 1.2 * rnd.nextDouble())), t);
      if (t % (50 * MS) == 0) {
        assertFalse(r.claim(RTT, t), "claimed at " + t / MS + " ms");
      }
    }
    assertEquals(0, r.renewals());
  }

  @Test
  void bbrLikeRise_afterASpeedUp_claimsWithinTwoCycles() {
    RateRise r = new RateRise();
    assertEquals(-1, firstClaim(r, 1.25e6, 0, 6_000 * MS));
    // the link goes from 10 to 80 Mbit/s at 6 s; the connection's rate grows a quarter every
    // eight round trips (1.6 s at 200 ms)
    long t = 6_000 * MS;
    double rate = 1.25e6;
    long claimed = -1;
    while (claimed < 0 && t < 12_000 * MS) {
      claimed = firstClaim(r, rate, t, t + 1_600 * MS);
      t += 1_600 * MS;
      rate *= 1.25;
    }
    assertTrue(claimed > 6_000 * MS && claimed <= 6_000 * MS + 2 * 1_600 * MS, "at " + claimed);
  }

  @Test
  void oneRenewalAtATime_thenQuiet() {
    RateRise r = new RateRise();
    feed(r, 1e6, 0, 4_000 * MS);
    r.claim(RTT, 4_000 * MS);
    feed(r, 1e6, 4_000 * MS, 8_000 * MS);
    assertFalse(r.claim(RTT, 8_000 * MS), "steady");
    feed(r, 3e6, 8_000 * MS, 9_000 * MS);
    assertTrue(r.claim(RTT, 9_000 * MS), "tripled");
    assertFalse(r.claim(RTT, 9_000 * MS), "a renewal is under way");
    r.renewed(RTT, 9_000 * MS);
    feed(r, 9e6, 9_000 * MS, 10_000 * MS);
    // four windows of 800 ms: quiet until 12.2 s, though the new connection's start is a rise
    assertFalse(r.claim(RTT, 10_000 * MS));
    assertEquals(1, r.renewals());
  }

  @Test
  void theReplicasOwnStart_isNoRise() {
    RateRise r = new RateRise();
    // slow start: doubling every round trip for a second
    double rate = 20e3;
    for (long t = 0; t < 1_400 * MS; t += RTT) {
      feed(r, rate, t, t + RTT);
      assertFalse(r.claim(RTT, t + RTT), "at " + (t + RTT) / MS);
      rate *= 2;
    }
    r.reconnected(RTT, 5_000 * MS);
    feed(r, 1e5, 5_000 * MS, 5_500 * MS);
    feed(r, 1e6, 5_500 * MS, 6_000 * MS);
    assertFalse(r.claim(RTT, 6_000 * MS), "a reconnected connection's start");
  }

  @Test
  void fallingRate_andATrickle_neverClaim() {
    RateRise r = new RateRise();
    assertEquals(-1, firstClaim(r, 10e6, 0, 5_000 * MS));
    assertEquals(-1, firstClaim(r, 1.25e6, 5_000 * MS, 10_000 * MS));
    RateRise slow = new RateRise();
    assertEquals(-1, firstClaim(slow, 10e3, 0, 3_000 * MS));
    assertEquals(-1, firstClaim(slow, 40e3, 3_000 * MS, 8_000 * MS));
  }

  @Test
  void recoveryFromADip_isNoRise() {
    RateRise r = new RateRise();
    assertEquals(-1, firstClaim(r, 2e6, 0, 5_000 * MS));
    // a connection replaced: the replica's rate halves for half a window, then is back
    assertEquals(-1, firstClaim(r, 1e6, 5_000 * MS, 5_400 * MS));
    assertEquals(-1, firstClaim(r, 2e6, 5_400 * MS, 9_000 * MS));
  }

  @Test
  void nearReplicas_areNeverRenewed() {
    RateRise r = new RateRise();
    long near = RateRise.MIN_LATENCY_NANOS - 1;
    for (long t = 0; t < 10_000 * MS; t += 50 * MS) {
      feed(r, 1e6 * Math.pow(1.25, t / 400e6), t, t + 50 * MS);
      assertFalse(r.claim(near, t + 50 * MS), "at " + t / MS);
    }
  }

  @Test
  void windows_followTheRoundTrip_withinBounds() {
    assertEquals(8, RateRise.windowSlots(0));
    assertEquals(16, RateRise.windowSlots(RTT));
    assertEquals(32, RateRise.windowSlots(2_000 * MS));
  }

  @Test
  void drainLimit_isTwoRoundTripsOfTheRate_atLeastOneMiB() {
    assertEquals(PipelinedFetch.DRAIN_LIMIT, PipelinedFetch.drainLimit(0, RTT));
    assertEquals(PipelinedFetch.DRAIN_LIMIT, PipelinedFetch.drainLimit(10e6, 20 * MS));
    assertEquals(4_000_000, PipelinedFetch.drainLimit(10e6, RTT));
  }
}
