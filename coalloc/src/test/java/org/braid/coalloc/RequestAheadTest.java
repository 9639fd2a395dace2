package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests sent ahead by a pipelining flow ({@link Leases#more}): sized by rate and round-trip
 * time, contiguous within a lease, at most one lease taken ahead, and never split off in the end
 * game once sent. Driven with a fake clock.
 */
class RequestAheadTest {
  private static final long MS = 1_000_000;
  private final long[] clock = {0};
  private final Leases.ChunkWriter writer = (pos, off, len) -> {};

  private BlockScheduler scheduler(long size, double... predicted) {
    List<Replica> replicas = new ArrayList<>();
    for (int i = 0; i < predicted.length; i++) {
      replicas.add(new Replica(i, URI.create("http://m" + i + "/f"), predicted[i]));
    }
    return new BlockScheduler(
        size,
        replicas,
        1,
        ((BlockPolicy.Spec) Scheme.adaptive()).create(),
        () -> clock[0],
        null,
        null,
        null);
  }

  /** Delivers the request's bytes in 64 KiB chunks, {@code msPerChunk} apart; the last step. */
  private Leases.Step deliver(BlockScheduler s, Leases.Request r, long msPerChunk)
      throws Exception {
    Leases.Step st = Leases.Step.CONTINUE;
    for (long left = r.length(); left > 0 && st == Leases.Step.CONTINUE; ) {
      int n = (int) Math.min(Fetcher.BUFFER, left);
      clock[0] += msPerChunk * MS;
      st = s.deliver(r.lease(), n, writer);
      left -= n;
    }
    return st;
  }

  @Test
  void requestSize_followsRateTimesRoundTrip_withinBounds() {
    assertEquals(RequestWindow.MIN_REQUEST, RequestWindow.requestSize(0, 0));
    assertEquals(10_000_000, RequestWindow.requestSize(100e6, 100 * MS));
    // at least REQUEST_SECONDS of the rate when the round trip is short
    assertEquals(5_000_000, RequestWindow.requestSize(100e6, MS));
    assertEquals(RequestWindow.MAX_REQUEST, RequestWindow.requestSize(1e9, 200 * MS));
    // one request plus two round trips' worth of bytes on their way
    assertEquals(RequestWindow.MIN_REQUEST + 2_000_000, RequestWindow.window(10e6, 100 * MS));
  }

  @Test
  void requestsOfALease_areContiguous_thenOneLeaseIsTakenAhead() throws Exception {
    BlockScheduler s = scheduler(100_000_000, 1e6);
    Flow f = s.flows().get(0);
    Leases.Request first = s.awaitRequest(f);
    assertNotNull(first);
    Lease l = first.lease();
    assertSame(l, f.current);
    assertEquals(0, first.offset());
    assertEquals(RequestWindow.MIN_REQUEST, first.length());
    // a window's worth on its way: nothing more now
    assertNull(s.more(f, RequestWindow.window(1e6, 0)));

    long end = first.offset() + first.length();
    Leases.Request r;
    while ((r = s.more(f, 0)) != null && r.lease() == l) {
      assertEquals(end, r.offset(), "contiguous");
      assertTrue(r.length() >= RequestWindow.MIN_REQUEST / 4, "no sliver: " + r.length());
      end += r.length();
    }
    assertEquals(l.block.end, end, "the whole block asked for, no more");
    assertEquals(end, l.sent);
    assertNotNull(r, "the next lease taken ahead");
    assertSame(r.lease(), f.next);
    assertSame(l, f.current);
    assertEquals(l.block.end, r.offset(), "the next block starts where the first ends");
    while (s.more(f, 0) != null) {
      assertSame(r.lease(), f.next, "at most one lease ahead");
    }
    assertEquals(r.lease().block.end, r.lease().sent);

    // the first lease ends: the one taken ahead becomes current, timed from now
    Lease ahead = r.lease();
    clock[0] += 100 * MS;
    Leases.Request whole = new Leases.Request(l, 0, l.block.end);
    assertEquals(Leases.Step.DONE, deliver(s, whole, 1));
    assertSame(ahead, f.current);
    assertNull(f.next);
    assertEquals(clock[0], ahead.activeNanos);
  }

  @Test
  void endGame_neverSplitsOffBytesAlreadyAskedFor() throws Exception {
    BlockScheduler s = scheduler(20_000_000, 5e6, 5e6);
    Flow fast = s.flows().get(0);
    Flow slow = s.flows().get(1);
    Leases.Request sr = s.awaitRequest(slow);
    assertNotNull(sr);
    Lease sl = sr.lease();
    // the slow flow reads a little of what it asked for, at about 0.6 MB/s
    clock[0] += 50 * MS;
    s.deliver(sl, Fetcher.BUFFER, writer);
    clock[0] += 100 * MS;
    s.deliver(sl, Fetcher.BUFFER, writer);
    assertNotNull(s.more(slow, sr.length() - 2 * Fetcher.BUFFER), "the slow flow asks ahead");
    long asked = sl.sent;
    long slowEnd = sl.block.end;
    assertTrue(asked < slowEnd, "part of the slow block is not asked for yet");
    // the fast flow (about 64 MB/s) takes and reads everything else, then steals
    boolean stole = false;
    for (int i = 0; i < 1000 && !stole; i++) {
      Leases.Request r = s.more(fast, 0);
      if (r == null) {
        clock[0] += 10 * MS;
        continue;
      }
      boolean inSlowBlock = r.offset() + r.length() > sl.from && r.offset() < slowEnd;
      assertTrue(
          !inSlowBlock || r.offset() >= asked,
          "request " + r.offset() + "+" + r.length() + " overlaps bytes asked for up to " + asked);
      stole |= inSlowBlock;
      deliver(s, r, 1);
      assertTrue(sl.block.end >= asked, "block cut below the bytes asked for");
    }
    assertTrue(stole, "the fast flow stole the slow flow's tail");
  }
}
