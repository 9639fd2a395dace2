package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link BlockPolicy} sees of a download and may change: the file size, the replicas and
 * flows with their rates, the bytes still to fetch, and reservations of the free pool for the
 * static schemes. Not thread-safe: used with the scheduler's lock held.
 */
final class PolicyView {
  private final List<Replica> replicas;
  private final RangePool pool;
  private final Flows flows;
  private final List<Flow> ordered;

  PolicyView(List<Replica> replicas, RangePool pool, Flows flows) {
    this.replicas = replicas;
    this.pool = pool;
    this.flows = flows;
    // replicas dropped before the start (a failed probe, another version of the file) take no
    // part: a static plan that reserved them a share would wait for it forever
    List<Flow> o = new ArrayList<>();
    flows.all().stream().filter(f -> !f.replica.dropped && f.replica.wholeFile).forEach(o::add);
    flows.all().stream().filter(f -> !f.replica.dropped && !f.replica.wholeFile).forEach(o::add);
    this.ordered = List.copyOf(o);
  }

  long size() {
    return pool.size();
  }

  /**
   * Every flow of a replica not dropped before the start, those of replicas that send only the
   * whole file first: a static plan reserves the front of the file for them, which they reach
   * without reading bytes they do not keep.
   */
  List<Flow> flows() {
    return ordered;
  }

  List<Replica> replicas() {
    return replicas;
  }

  long freeBytes() {
    return pool.freeBytes();
  }

  /** Bytes not yet committed: the free pool plus the unfinished part of every active block. */
  long remainingBytes() {
    return pool.remainingBytes();
  }

  /** Reserves the next {@code bytes} of the free pool for a flow (static schemes). */
  void reserve(Flow f, long bytes) {
    long left = bytes;
    while (left > 0 && pool.hasFree()) {
      ByteRange r = pool.take(left);
      f.reserved.add(r);
      left -= r.length();
    }
  }

  /** See {@link Flows#rateOf}. */
  double rateOf(Flow f, long now) {
    return flows.rateOf(f, now);
  }
}
