package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The end game lets an idle fast flow join the last block when two slow replicas fetch it already
 * and the fast one would fetch all of it much sooner (issue 17: at the end of a 10 MB download at
 * 20-200 ms the 80 Mbit/s mirror stood idle for 0.1-0.34 s while the 20 and 10 Mbit/s ones raced
 * for the last 0.2-0.3 MB); but not when it would not be much sooner. Driven with a fake clock.
 */
class EndGameJoinTest {
  private static final long MS = 1_000_000;
  private final long[] clock = {0};
  private final Leases.ChunkWriter writer = (pos, off, len) -> {};

  /** Flows of replicas a, b and c; a holds the last block, b fetches it too, c is idle. */
  private record Setup(BlockScheduler s, Flow a, Flow b, Flow c, Lease la, Lease lb) {}

  private Setup setup() throws Exception {
    BlockScheduler s = Schedulers.adaptive(3_000_000, () -> clock[0], 0, 0, 0);
    Flow a = s.flows().get(0);
    Flow b = s.flows().get(1);
    Flow c = s.flows().get(2);
    Lease la = s.tryAssign(a);
    assertNotNull(la);
    // a delivers one buffer, then b and c fetch everything else
    clock[0] += 10 * MS;
    assertEquals(Leases.Step.CONTINUE, s.deliver(la, Fetcher.BUFFER, writer));
    for (int round = 0; round < 100 && !s.ending(); round++) {
      for (Flow f : List.of(b, c)) {
        Lease l = s.tryAssign(f);
        if (l == null) {
          continue;
        }
        while (s.deliver(l, Fetcher.BUFFER, writer) == Leases.Step.CONTINUE) {
          clock[0] += MS / 10;
        }
      }
    }
    assertTrue(s.ending(), "every byte given out");
    Block last = la.block;
    assertTrue(
        !last.done && last.end - last.committed >= 100_000 && last.leases.size() == 1,
        "a's block is left: " + last.committed + "-" + last.end + " " + last.leases.size());
    // b fetches a's block too; both deliver slowly, neither silent
    Lease lb = Lease.start(last, b, last.committed, /* duplicate= */ true, clock[0]);
    for (Flow f : List.of(a, b)) {
      f.rate = 100_000;
      f.measured = true;
      f.latencyNanos = 100 * MS;
      f.lastProgressNanos = clock[0];
    }
    lb.firstByteNanos = clock[0];
    return new Setup(s, a, b, c, la, lb);
  }

  @Test
  void aMuchFasterIdleFlow_joinsABlockTwoSlowFlowsFetch() throws Exception {
    Setup x = setup();
    // c: 10 MB/s, 20 ms away: the rest in about 0.03 s against 1 s or more at 100 KB/s
    x.c().rate = 10e6;
    x.c().measured = true;
    x.c().latencyNanos = 20 * MS;
    Lease lc = x.s().tryAssign(x.c());
    assertNotNull(lc);
    assertSame(x.la().block, lc.block);
    assertTrue(lc.duplicate);
    assertEquals(3, x.la().block.leases.size());
  }

  @Test
  void anIdleFlowNotMuchFaster_doesNotJoinABlockFetchedTwice() throws Exception {
    Setup x = setup();
    // c: barely faster than a and b, and far away
    x.c().rate = 110_000;
    x.c().measured = true;
    x.c().latencyNanos = 200 * MS;
    assertNull(x.s().tryAssign(x.c()));
    assertEquals(2, x.la().block.leases.size());
  }
}
