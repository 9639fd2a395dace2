package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleUnaryOperator;

/**
 * Drives a {@link BlockScheduler} in simulated time: each replica delivers at a rate that is a
 * function of time, shared by its open requests, after a fixed request latency. Optionally a
 * replica fails after a number of bytes. Records how often every byte was written.
 */
final class Simulator {
  static final long STEP_NANOS = 1_000_000;

  static final class Mirror {
    final DoubleUnaryOperator rate; // bytes per second at time t (seconds)
    final double latency;
    final double predicted;
    long failAfter = Long.MAX_VALUE;
    long stallAfter = Long.MAX_VALUE;
    boolean failRetryable;
    long sent;

    Mirror(DoubleUnaryOperator rate, double latency, double predicted) {
      this.rate = rate;
      this.latency = latency;
      this.predicted = predicted;
    }
  }

  /** Outcome of a run. */
  static final class Result {
    double seconds;
    boolean complete;
    Exception failure;
    byte[] writes; // per byte write count, when tracked
    long committed;
    List<BlockEvent> events;

    /**
     * Bytes not yet in the stable prefix one step before the last byte arrived: what a running
     * whole-file hash still has to read after the transfer ends.
     */
    long unhashedAtEnd;

    /** Running blocks cut back because their flow slowed down. */
    int cuts;

    /** The stable prefix at the start of each step of {@link #STEP_NANOS}. */
    final List<Long> prefix = new ArrayList<>();

    /**
     * Seconds from the start until a whole-file hash that reads the stable prefix at {@code rate}
     * bytes per second has hashed the whole file.
     */
    double hashedAt(long size, double rate) {
      double hashed = 0;
      double step = STEP_NANOS / 1e9;
      for (long p : prefix) {
        hashed = Math.min(p, hashed + rate * step);
      }
      return prefix.size() * step + (size - hashed) / rate;
    }
  }

  private static final class Open {
    final Lease lease;
    final long readyAt;
    final long end;
    long pos;
    double carry;

    Open(Lease lease, long readyAt) {
      this.lease = lease;
      this.readyAt = readyAt;
      this.end = lease.requestEnd();
      this.pos = lease.from;
    }
  }

  static Result run(
      long size,
      List<Mirror> mirrors,
      int connections,
      Scheme scheme,
      boolean track,
      double limitSeconds) {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    List<Replica> replicas = new ArrayList<>();
    for (int i = 0; i < mirrors.size(); i++) {
      replicas.add(new Replica(i, URI.create("http://m" + i + "/f"), mirrors.get(i).predicted));
    }
    Result res = new Result();
    byte[] writes = track ? new byte[(int) size] : null;
    BlockScheduler s =
        new BlockScheduler(
            size,
            replicas,
            connections,
            ((BlockPolicy.Spec) scheme).create(),
            clock::get,
            null,
            null,
            null);
    Map<Flow, Open> open = new HashMap<>();
    long start = clock.get();
    long limit = start + (long) (limitSeconds * 1e9);
    try {
      while (!s.complete() && s.failure() == null && clock.get() < limit) {
        res.unhashedAtEnd = size - s.stablePrefix();
        res.prefix.add(s.stablePrefix());
        long now = clock.get();
        for (Flow f : s.flows()) {
          if (!open.containsKey(f)) {
            Lease l = s.tryAssign(f);
            if (l != null) {
              long lat = (long) (mirrors.get(f.replica.index).latency * 1e9);
              open.put(f, new Open(l, now + lat));
            }
          }
        }
        clock.addAndGet(STEP_NANOS);
        double t = (clock.get() - start) / 1e9;
        for (int m = 0; m < mirrors.size(); m++) {
          Mirror mir = mirrors.get(m);
          List<Flow> active = new ArrayList<>();
          for (Map.Entry<Flow, Open> e : open.entrySet()) {
            if (e.getKey().replica.index == m && e.getValue().readyAt <= clock.get()) {
              active.add(e.getKey());
            }
          }
          if (active.isEmpty()) {
            continue;
          }
          active.sort((a, b) -> Integer.compare(a.id, b.id));
          double share =
              mir.sent >= mir.stallAfter
                  ? 0
                  : mir.rate.applyAsDouble(t) * STEP_NANOS / 1e9 / active.size();
          for (Flow f : active) {
            Open o = open.get(f);
            o.carry += share;
            int n = (int) Math.min(o.carry, o.end - o.pos);
            if (n <= 0) {
              continue;
            }
            o.carry -= n;
            if (mir.sent + n > mir.failAfter) {
              open.remove(f);
              s.fail(
                  o.lease,
                  new SourceException(
                      o.lease.flow.replica.uri, "simulated failure", mir.failRetryable, null));
              continue;
            }
            mir.sent += n;
            long from = o.pos;
            Leases.Step st =
                s.deliver(
                    o.lease,
                    n,
                    (pos, off, len) -> {
                      if (writes != null) {
                        for (long p = pos; p < pos + len; p++) {
                          writes[(int) p]++;
                        }
                      }
                      if (pos != from + off) {
                        throw new AssertionError("write position " + pos + " != " + (from + off));
                      }
                    });
            o.pos += n;
            if (st == Leases.Step.DONE) {
              open.remove(f);
            } else if (st == Leases.Step.STOP || o.pos >= o.end) {
              open.remove(f);
              s.release(o.lease);
            }
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    res.seconds = (clock.get() - start) / 1e9;
    res.complete = s.complete();
    res.failure = s.failure();
    res.writes = writes;
    res.committed = s.committed().total();
    res.events = s.events();
    res.cuts = s.cuts();
    return res;
  }
}
