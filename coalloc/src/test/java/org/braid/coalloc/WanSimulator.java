package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleUnaryOperator;

/**
 * A download in simulated time over a simple model of TCP on a wide-area network, to compare ways
 * of fetching without the noise of a shared machine. Each replica has a link rate (a function of
 * time) and a round-trip time; the whole round trip is on the way back, as in the testbed (a
 * request reaches the server at once, its bytes arrive a round trip after they were sent). Each
 * flow has one connection: opening it costs a round trip; it starts with an initial window of ten
 * segments that grows by every byte acknowledged (slow start, doubling per round trip, as BBR's
 * start-up) up to twice the link's bandwidth-delay product, and starts from the initial window
 * again after sending nothing for longer than its retransmission timeout (a round trip plus 200 ms:
 * {@code tcp_slow_start_after_idle}). A link's rate is shared by the connections that have bytes to
 * send and window to send them. The JVM's start is not modelled.
 *
 * <p>Two ways to fetch: <b>sequential</b>, one request per block on a kept-alive connection, the
 * next sent when the last byte of the one before arrived, a connection dropped when a request stops
 * with more than two round trips' worth unread ({@link Fetcher#drainLimit}; 64 KiB before session
 * 11); and <b>pipelined</b>, requests sent ahead by {@link Leases#more} so that the server never
 * waits for one. Two ways to start: a probe per replica, with the transfer starting once every
 * replica answered; or the probe folded into a first request per flow for a guessed range, the
 * transfer starting once most replicas answered.
 */
final class WanSimulator {
  static final long STEP_NANOS = 1_000_000;
  static final double DT = STEP_NANOS / 1e9;

  /** Initial congestion window: ten segments of 1448 bytes. */
  static final double IW = 10 * 1448;

  static final double RTO_MIN = 0.2;

  /**
   * A sequential request stopped with more than this unread drops its connection (before session
   * 11; see {@link Options#drainByRate}).
   */
  static final long DRAIN_LIMIT = 64 * 1024;

  /** A pipelined request stopped with more than this unread drops its connection. */
  static final long PIPELINED_DRAIN_LIMIT = PipelinedFetch.DRAIN_LIMIT;

  /** A replica: link rate in bytes per second at time t (seconds), round-trip time (seconds). */
  static final class Mirror {
    final DoubleUnaryOperator rate;
    final double rtt;
    final double predicted;
    double dieAt = Double.POSITIVE_INFINITY;

    Mirror(DoubleUnaryOperator rate, double rtt, double predicted) {
      this.rate = rate;
      this.rtt = rtt;
      this.predicted = predicted;
    }
  }

  /** How the simulated downloader fetches. */
  static final class Options {
    boolean pipelined = true;
    boolean foldProbe = true;
    long speculative = 1 << 20;
    int connections = 1;

    /**
     * Sequential: the rest of a request cut short is read and dropped up to {@link
     * Fetcher#drainLimit} (as the fetch loop does since session 11), else up to {@link
     * #DRAIN_LIMIT}.
     */
    boolean drainByRate = true;

    Scheme scheme = Scheme.adaptive();
    double limitSeconds = 600;

    static Options sequential() {
      Options o = new Options();
      o.pipelined = false;
      o.foldProbe = false;
      return o;
    }

    static Options pipelined(boolean foldProbe) {
      Options o = new Options();
      o.foldProbe = foldProbe;
      return o;
    }
  }

  /** Outcome of a run. */
  static final class Result {
    double seconds;
    double startSeconds;
    boolean complete;
    Exception failure;
    long unhashedAtEnd;
    int requests;
    int reconnects;
    long wasted;
    List<BlockEvent> events;

    /** Per mirror: seconds of its link left unused before its first byte was sent, and after. */
    double[] idleBefore;

    double[] idleAfter;

    /** Per mirror: when it sent its last byte. */
    double[] lastSend;

    @Override
    public String toString() {
      StringBuilder idle = new StringBuilder();
      for (int i = 0; idleBefore != null && i < idleBefore.length; i++) {
        idle.append(
            String.format(
                " m%d idle %.3f+%.3f s, last %.3f;", i, idleBefore[i], idleAfter[i], lastSend[i]));
      }
      return String.format(
          "%.3f s (transfer from %.3f s), %d requests, %d reconnects, %d bytes wasted, %d to hash"
              + " at the end;%s",
          seconds, startSeconds, requests, reconnects, wasted, unhashedAtEnd, idle);
    }
  }

  private static final class Req {
    Lease lease;
    final long offset;
    final long length;
    final double arriveAt;
    long served;
    long received;
    long buffered;

    Req(Lease lease, long offset, long length, double arriveAt) {
      this.lease = lease;
      this.offset = offset;
      this.length = length;
      this.arriveAt = arriveAt;
    }
  }

  private record Pkt(double at, Req req, long bytes) {}

  private static final class Conn {
    final Mirror m;
    double readyAt = Double.NaN;
    double cwnd = IW;
    double lastSend = -1e9;
    long transitBytes;
    final ArrayDeque<Req> server = new ArrayDeque<>();
    final ArrayDeque<Pkt> transit = new ArrayDeque<>();
    final ArrayDeque<Req> client = new ArrayDeque<>();

    Conn(Mirror m) {
      this.m = m;
    }

    boolean connected() {
      return !Double.isNaN(readyAt);
    }

    long inFlight() {
      long n = 0;
      for (Req r : client) {
        n += r.length - r.received;
      }
      return n;
    }

    void connect(double now) {
      readyAt = now + m.rtt;
      cwnd = IW;
      lastSend = now;
    }

    void drop() {
      readyAt = Double.NaN;
      server.clear();
      transit.clear();
      transitBytes = 0;
      client.clear();
    }
  }

  private final long size;
  private final List<Mirror> mirrors;
  private final Options o;
  private final List<Conn> conns = new ArrayList<>();
  private final Set<Lease> stopped = new HashSet<>();
  private final Result res = new Result();
  private final AtomicLong clock = new AtomicLong();
  private BlockScheduler s;
  private double t;

  private WanSimulator(long size, List<Mirror> mirrors, Options o) {
    this.size = size;
    this.mirrors = mirrors;
    this.o = o;
  }

  static Result run(long size, List<Mirror> mirrors, Options o) {
    return new WanSimulator(size, mirrors, o).run();
  }

  private Result run() {
    for (Mirror m : mirrors) {
      for (int c = 0; c < o.connections; c++) {
        conns.add(new Conn(m));
      }
    }
    res.idleBefore = new double[mirrors.size()];
    res.idleAfter = new double[mirrors.size()];
    res.lastSend = new double[mirrors.size()];
    double startAt = begin();
    while (t < o.limitSeconds) {
      if (s == null && t >= startAt) {
        startScheduler();
      }
      if (s != null) {
        if (s.complete() || s.failure() != null) {
          break;
        }
        res.unhashedAtEnd = size - s.stablePrefix();
        kill();
        for (int j = 0; j < conns.size(); j++) {
          request(j);
        }
      }
      t += DT;
      clock.addAndGet(STEP_NANOS);
      serve();
      for (int j = 0; j < conns.size(); j++) {
        receive(j);
      }
    }
    res.seconds = t;
    res.complete = s != null && s.complete();
    res.failure = s == null ? null : s.failure();
    if (s != null) {
      res.events = s.events();
      res.requests = res.events.size();
    }
    return res;
  }

  /** Opens the connections and sends the probes or first requests; returns when to start. */
  private double begin() {
    List<Double> answers = new ArrayList<>();
    for (int j = 0; j < conns.size(); j++) {
      Conn c = conns.get(j);
      if (o.foldProbe) {
        c.connect(0);
        long off = j * o.speculative;
        long len = Math.max(0, Math.min(o.speculative, size - off));
        Req r = new Req(null, off, len, c.readyAt);
        c.server.add(r);
        c.client.add(r);
      } else if (j % o.connections == 0) {
        c.connect(0); // the probe's connection, kept alive for the flow
      }
      if (j % o.connections == 0) {
        answers.add(2 * c.m.rtt);
      }
    }
    answers.sort(null);
    int need = o.foldProbe ? answers.size() / 2 + 1 : answers.size();
    double at = answers.get(need - 1);
    res.startSeconds = at;
    return at;
  }

  private void startScheduler() {
    List<Replica> replicas = new ArrayList<>();
    for (int i = 0; i < mirrors.size(); i++) {
      replicas.add(new Replica(i, URI.create("http://m" + i + "/f"), mirrors.get(i).predicted));
    }
    List<ByteRange> first = new ArrayList<>();
    for (Conn c : conns) {
      Req r = c.client.peek();
      first.add(r != null && r.length > 0 ? new ByteRange(r.offset, r.offset + r.length) : null);
    }
    clock.set((long) (t * 1e9));
    s =
        new BlockScheduler(
            size,
            replicas,
            o.connections,
            ((BlockPolicy.Spec) o.scheme).create(),
            clock::get,
            null,
            null,
            o.foldProbe ? first : null);
    if (!o.pipelined) {
      s.firstLeasesCuttable();
    }
    for (int j = 0; j < conns.size(); j++) {
      Conn c = conns.get(j);
      Req r = c.client.peek();
      if (r == null) {
        continue;
      }
      r.lease = s.firstLease(s.flows().get(j));
      if (r.lease != null && r.buffered > 0) {
        deliver(j, c, r, r.buffered);
      }
    }
  }

  private void kill() {
    for (int j = 0; j < conns.size(); j++) {
      Conn c = conns.get(j);
      if (t >= c.m.dieAt && c.connected()) {
        Flow f = s.flows().get(j);
        for (Req r : c.client) {
          if (r.lease != null && !stopped.contains(r.lease)) {
            stopped.add(r.lease);
            s.fail(r.lease, new SourceException(f.replica.uri, "simulated: killed", true, null));
          }
        }
        c.drop();
      }
    }
  }

  /** The fetcher: sends what the scheduler says. */
  private void request(int j) {
    Conn c = conns.get(j);
    Flow f = s.flows().get(j);
    if (o.pipelined) {
      Leases.Request r;
      while ((r = s.more(f, c.inFlight())) != null) {
        send(c, r.lease(), r.offset(), r.length());
      }
    } else if (c.client.isEmpty()) {
      Lease l = s.tryAssign(f);
      if (l != null) {
        send(c, l, l.from, l.requestEnd() - l.from);
      }
    }
  }

  private void send(Conn c, Lease l, long off, long len) {
    if (!c.connected()) {
      c.connect(t);
      res.reconnects++;
    }
    if (t >= c.m.dieAt) {
      // connection refused a round trip later
      stopped.add(l);
      s.fail(l, new SourceException(l.flow.replica.uri, "simulated: refused", true, null));
      c.drop();
      return;
    }
    Req q = new Req(l, off, len, Math.max(t, c.readyAt));
    c.server.add(q);
    c.client.add(q);
  }

  /** Every link sends what it can this step, shared by its connections. */
  private void serve() {
    for (Mirror m : mirrors) {
      if (t >= m.dieAt) {
        continue;
      }
      List<Conn> active = new ArrayList<>();
      List<Double> wants = new ArrayList<>();
      for (Conn c : conns) {
        if (c.m != m || c.server.isEmpty() || c.server.peek().arriveAt > t) {
          continue;
        }
        if (c.transitBytes == 0 && t - c.lastSend > m.rtt + RTO_MIN) {
          c.cwnd = IW; // idle longer than the retransmission timeout: slow start again
        }
        double avail = 0;
        for (Req r : c.server) {
          if (r.arriveAt <= t) {
            avail += r.length - r.served;
          }
        }
        double want = Math.min(avail, c.cwnd - c.transitBytes);
        if (want >= 1) {
          active.add(c);
          wants.add(want);
        }
      }
      double cap = m.rate.applyAsDouble(t) * DT;
      double[] give = waterFill(cap, wants);
      double sent = 0;
      for (int i = 0; i < active.size(); i++) {
        send(active.get(i), (long) give[i]);
        sent += give[i];
      }
      int k = mirrors.indexOf(m);
      double unused = (cap - sent) / m.rate.applyAsDouble(t);
      if (sent > 0) {
        res.lastSend[k] = t;
      }
      if (res.lastSend[k] == 0) {
        res.idleBefore[k] += unused;
      } else {
        res.idleAfter[k] += unused;
      }
    }
  }

  private static double[] waterFill(double cap, List<Double> wants) {
    double[] give = new double[wants.size()];
    double left = cap;
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < give.length; i++) {
      open.add(i);
    }
    while (!open.isEmpty() && left > 1e-9) {
      double share = left / open.size();
      List<Integer> still = new ArrayList<>();
      for (int i : open) {
        double g = Math.min(share, wants.get(i) - give[i]);
        give[i] += g;
        left -= g;
        if (wants.get(i) - give[i] > 1e-9) {
          still.add(i);
        }
      }
      if (still.size() == open.size()) {
        break;
      }
      open = still;
    }
    return give;
  }

  private void send(Conn c, long bytes) {
    long left = bytes;
    while (left > 0 && !c.server.isEmpty() && c.server.peek().arriveAt <= t) {
      Req r = c.server.peek();
      long n = Math.min(left, r.length - r.served);
      r.served += n;
      left -= n;
      c.transit.add(new Pkt(t + c.m.rtt, r, n));
      c.transitBytes += n;
      if (r.served >= r.length) {
        c.server.poll();
      }
    }
    c.lastSend = t;
  }

  /** The client reads what arrived. */
  private void receive(int j) {
    Conn c = conns.get(j);
    while (!c.transit.isEmpty() && c.transit.peek().at() <= t + 1e-12) {
      Pkt p = c.transit.poll();
      c.transitBytes -= p.bytes();
      c.cwnd = Math.min(c.cwnd + p.bytes(), Math.max(IW, 2 * c.m.rate.applyAsDouble(t) * c.m.rtt));
      Req r = p.req();
      if (s == null) {
        r.buffered += p.bytes();
        r.received += p.bytes();
        continue;
      }
      r.received += p.bytes();
      deliver(j, c, r, p.bytes());
      if (!c.connected()) {
        return; // dropped while delivering
      }
      if (r.received >= r.length && c.client.peek() == r) {
        c.client.poll();
        if (r.lease != null) {
          r.lease.flow.cold = false; // its request ended on a connection that stays open
        }
      }
    }
  }

  private void deliver(int j, Conn c, Req r, long n) {
    Lease l = r.lease;
    if (l == null || stopped.contains(l)) {
      res.wasted += n;
      return;
    }
    Leases.Step st;
    try {
      long from = l.pos;
      st =
          s.deliver(
              l,
              (int) n,
              (pos, off, len) -> {
                if (pos != from + off) {
                  throw new AssertionError("write position " + pos + " != " + (from + off));
                }
              });
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    if (st == Leases.Step.CONTINUE) {
      return;
    }
    if (st == Leases.Step.STOP) {
      s.release(l);
    }
    stopped.add(l);
    long waste = 0;
    for (Req q : c.client) {
      if (q.lease == l) {
        waste += q.length - q.received;
      }
    }
    long limit =
        o.pipelined
            ? PIPELINED_DRAIN_LIMIT
            : o.drainByRate ? Fetcher.drainLimit(l.flow.rate, (long) (c.m.rtt * 1e9)) : DRAIN_LIMIT;
    if (waste > limit) {
      reconnect(c, l);
    }
  }

  /** Drops the connection; the requests of other leases on it are sent again on a new one. */
  private void reconnect(Conn c, Lease gone) {
    List<Req> again = new ArrayList<>();
    for (Req q : c.client) {
      if (q.lease != gone && q.lease != null && !stopped.contains(q.lease)) {
        again.add(q);
      }
    }
    c.drop();
    gone.flow.cold = true;
    res.reconnects++;
    if (again.isEmpty()) {
      return; // connects when the next request is sent
    }
    c.connect(t);
    for (Req q : again) {
      Req n = new Req(q.lease, q.offset + q.received, q.length - q.received, c.readyAt);
      c.server.add(n);
      c.client.add(n);
    }
  }
}
