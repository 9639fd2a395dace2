package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the end game counts as a thief's cost: a flow whose connection was closed pays a connect and
 * TCP's slow start ({@link EndGame#coldSeconds}), so a distant cold flow does not take a tail that
 * the flow holding it finishes sooner; and a folded first request's latency, counted from the
 * scheduler's start, stands only until the next request measures one. Driven with a fake clock.
 */
class ThiefCostsTest {
  private static final long MS = 1_000_000;
  private final long[] clock = {0};
  private final Leases.ChunkWriter writer = (pos, off, len) -> {};

  @Test
  void coldSeconds_isAConnectPlusSlowStartsRoundsBeyondTwo() {
    // 5 MB/s at 200 ms: a product of 1 MB, 6.1 doublings from ten segments: 5.1 round trips
    assertEquals(1.02, EndGame.coldSeconds(5e6, 0.2), 0.01);
    // 5 MB/s at 50 ms: 4.1 doublings: 3.1 round trips
    assertEquals(0.155, EndGame.coldSeconds(5e6, 0.05), 0.01);
    // a product under four initial windows: the connect only
    assertEquals(0.02, EndGame.coldSeconds(1e6, 0.02), 1e-9);
    assertEquals(0.1, EndGame.coldSeconds(0, 0.1), 1e-9);
  }

  /**
   * The tail the idle flow b is given when a still fetches its block, b's connection cold or not.
   */
  private Lease tailFor(boolean cold) throws Exception {
    BlockScheduler s = Schedulers.adaptive(2_000_000, () -> clock[0], 1e6, 1e6);
    Flow a = s.flows().get(0);
    Flow b = s.flows().get(1);
    Lease lb = s.tryAssign(b);
    Lease la = s.tryAssign(a);
    assertNotNull(lb);
    assertNotNull(la);
    // b delivers its share at once; a at 1 MB/s for 320 ms
    clock[0] += MS;
    while (s.deliver(lb, Fetcher.BUFFER, writer) == Leases.Step.CONTINUE) {
      clock[0] += MS;
    }
    for (int i = 0; i < 5; i++) {
      clock[0] += 64 * MS;
      assertEquals(Leases.Step.CONTINUE, s.deliver(la, Fetcher.BUFFER, writer));
    }
    assertTrue(s.ending(), "every byte given out");
    // b: 200 ms away, measured at 5 MB/s
    b.latencyNanos = 200 * MS;
    b.rate = 5e6;
    b.measured = true;
    b.cold = cold;
    return s.tryAssign(b);
  }

  @Test
  void aWarmDistantFlow_takesOnTheSlowTail_aColdOneDoesNot() throws Exception {
    Lease warm = tailFor(false);
    assertNotNull(warm, "warm: about 0.4 s against 0.7 s left at the holder's rate");
    clock[0] = 0;
    assertNull(tailFor(true), "cold: a connect and slow start make it 1.4 s");
  }

  @Test
  void aFoldedFirstRequestsLatency_isReplacedByTheNextRequests() throws Exception {
    BlockScheduler s =
        new BlockScheduler(
            4_000_000,
            List.of(new Replica(0, URI.create("http://a/f"), 0)),
            1,
            ((BlockPolicy.Spec) Scheme.adaptive()).create(),
            () -> clock[0],
            null,
            null,
            List.of(new ByteRange(0, 1 << 20)));
    s.firstLeasesCuttable();
    Flow f = s.flows().get(0);
    Lease first = s.firstLease(f);
    assertNotNull(first);
    // sent 200 ms before the scheduler started, its bytes come 10 ms after
    clock[0] += 10 * MS;
    Leases.Step st;
    do {
      st = s.deliver(first, Fetcher.BUFFER, writer);
      clock[0] += MS;
    } while (st == Leases.Step.CONTINUE);
    assertEquals(10 * MS, f.latencyNanos, "the folded request's, for now");
    Lease next = s.tryAssign(f);
    assertNotNull(next);
    clock[0] += 200 * MS;
    s.deliver(next, Fetcher.BUFFER, writer);
    assertEquals(200 * MS, f.latencyNanos, "replaced, though longer");
  }
}
