package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The end of a complete download: requests still open are ended at once, so the report and the
 * journal have every request, and a worker that still delivers a chunk afterwards neither writes
 * nor records the request a second time.
 */
class ReleaseAllTest {
  @Test
  void releaseAll_recordsOpenRequestsOnce_andLateChunksOnlyCount() throws Exception {
    List<Replica> replicas =
        List.of(
            new Replica(0, URI.create("http://m0/f"), 1e6),
            new Replica(1, URI.create("http://m1/f"), 1e6));
    long[] clock = {0};
    BlockScheduler s =
        new BlockScheduler(
            10_000_000,
            replicas,
            1,
            ((BlockPolicy.Spec) Scheme.adaptive()).create(),
            () -> clock[0],
            null,
            null,
            null);
    Flow f0 = s.flows().get(0);
    Lease l = s.tryAssign(f0);
    assertNotNull(l);
    clock[0] += 1_000_000;
    long[] writes = {0};
    Leases.ChunkWriter w = (pos, off, len) -> writes[0] += len;
    assertEquals(Leases.Step.CONTINUE, s.deliver(l, 1000, w));

    s.releaseAll("cancelled: download finished");
    assertNull(f0.current);
    List<BlockEvent> events = s.events();
    assertEquals(1, events.size());
    assertEquals(1000, events.get(0).written());
    assertEquals("cancelled: download finished", events.get(0).result());

    // the worker's chunk in flight: not written, counted once, and the request stays ended
    assertEquals(Leases.Step.STOP, s.deliver(l, 500, w));
    s.release(l);
    assertEquals(1000, writes[0]);
    assertEquals(1, s.events().size());
    FlowCounters c0 = s.flowCounters().get(0);
    assertEquals(1000, c0.bytesWritten(), "bytes written");
    assertEquals(1000, c0.bytesReceived(), "bytes received");
  }
}
