package org.braid.coalloc;

import java.util.List;

/**
 * Decides what a pipelining flow asks its replica for next (see {@link Leases#more}): nothing while
 * the bytes on their way cover its {@link RequestWindow#window}, else more of its newest lease,
 * else the first request of one lease taken ahead. Also makes the leases for first requests sent
 * before the size was known (the probe folded into them). Not thread-safe: called with the
 * scheduler's lock held.
 */
final class RequestAhead {
  private final Flows flows;
  private final ReplicaHealth health;
  private final Assigner assigner;

  RequestAhead(Flows flows, ReplicaHealth health, Assigner assigner) {
    this.flows = flows;
    this.health = health;
    this.assigner = assigner;
  }

  /** The flow's next request with {@code inFlight} bytes on their way, or null for none now. */
  Leases.Request next(Flow f, long inFlight, long now) {
    double rate = flows.rateOf(f, now);
    long latency = Math.max(0, f.latencyNanos);
    if (inFlight >= RequestWindow.window(rate, latency)) {
      return null;
    }
    long size = RequestWindow.requestSize(rate, latency);
    Lease newest = f.next != null ? f.next : f.current;
    if (newest != null && newest.cancelReason == null) {
      Leases.Request r = extend(newest, size);
      if (r != null) {
        return r;
      }
    }
    if (f.next != null || health.backoffLeft(f.replica, now) > 0) {
      return null;
    }
    Lease l = assigner.assign(f, now);
    return l == null ? null : extend(l, size);
  }

  /**
   * The next request for the lease, at most {@code size} bytes (the whole rest if that is little
   * more); null if all of it was asked for or its block is done.
   */
  static Leases.Request extend(Lease l, long size) {
    synchronized (l.block) {
      long from = Math.max(l.sent, l.pos);
      long avail = l.block.end - from;
      if (l.block.done || avail <= 0) {
        return null;
      }
      long len = avail - size < size / 4 ? avail : size;
      l.sent = from + len;
      return new Leases.Request(l, from, len);
    }
  }

  /**
   * By flow id, the leases for first requests already sent: {@code first} holds, by flow id, the
   * range each asked for or null; a range entirely free and inside the file becomes the flow's
   * first lease, all of it requested; any other gets null (its answer is then discarded).
   */
  static Lease[] firstLeases(
      RangePool pool, Flows flows, List<ByteRange> first, long size, long now) {
    Lease[] out = new Lease[flows.all().size()];
    for (Flow f : flows.all()) {
      ByteRange r = first != null && f.id < first.size() ? first.get(f.id) : null;
      if (r != null
          && !f.replica.dropped
          && r.end() <= size
          && pool.takeExact(r.start(), r.end())) {
        Lease l = Lease.start(pool.open(r.start(), r.end()), f, r.start(), false, now);
        l.sent = r.end();
        out[f.id] = l;
      }
    }
    return out;
  }
}
