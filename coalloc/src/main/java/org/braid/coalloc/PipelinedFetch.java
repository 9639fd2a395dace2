package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch loop of a flow whose replica takes pipelined requests ({@link Pipe}): it keeps the
 * flow's {@link RequestWindow} of bytes asked for ahead ({@link Leases#more}), so the replica never
 * waits for a request, reads the answers in order into their leases, and keeps its connection for
 * the whole download (TCP's slow start is paid once, not per block). The rest of a lease that
 * stopped early (another flow finished its block, it was cancelled) is read and dropped when it
 * takes less than a reconnection ({@link #drainLimit}); beyond that the connection is dropped and
 * the requests of live leases are sent again on a new one. A connection failure fails the lease
 * being read (the replica backs off) and gives the others back without blame.
 *
 * <p>When the replica's delivered rate rises ({@link RateRise}: its link has room its warm
 * connections are slow to use), one of its flows renews its connection without a gap: a new one is
 * opened in the background, the next requests go to it, and the old one is closed once its answers
 * are read. Not in the end game ({@link Leases#ending}): rates then change with the work left.
 */
final class PipelinedFetch {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Unread bytes of stopped leases at most this long are read and dropped, keeping the pipe. */
  static final long DRAIN_LIMIT = 1L << 20;

  /**
   * Round trips a new connection costs at least (connecting, the first request), so that draining
   * as many round trips' worth of unwanted bytes is no slower than reconnecting.
   */
  static final int DRAIN_ROUND_TRIPS = 2;

  private final String id;
  private final Leases leases;
  private final Fetcher.Sink sink;
  private final Set<Pipe> open = ConcurrentHashMap.newKeySet();
  private final Map<Replica, RateRise> rises = new ConcurrentHashMap<>();

  /**
   * Whether connections are renewed on a rising rate; the system property {@code braid.renew=false}
   * turns it off (for comparisons, e.g. {@code BRAID_JAVA_OPTS=-Dbraid.renew=false}).
   */
  private volatile boolean renewing = !"false".equals(System.getProperty("braid.renew"));

  private volatile long renewMinLatency = RateRise.MIN_LATENCY_NANOS;

  private volatile String stopped;

  PipelinedFetch(String id, Leases leases, Fetcher.Sink sink) {
    this.id = id;
    this.leases = leases;
    this.sink = sink;
  }

  /** Turns renewal on rising rates ({@link RateRise}) off: for tests of the plain loop. */
  void noRenewal() {
    renewing = false;
  }

  /** Renews connections to replicas however near (tests on this machine). */
  void renewNearReplicas() {
    renewMinLatency = 0;
  }

  /** Connection renewals claimed so far for the replica. */
  int renewals(Replica r) {
    RateRise rise = rises.get(r);
    return rise == null ? 0 : rise.renewals();
  }

  /** Closes every pipe: for whatever still runs once the download is over. */
  void stopAll(String reason) {
    stopped = reason;
    for (Pipe p : open) {
      closeQuietly(p);
    }
  }

  /** Thrown to drop the connection: too much of stopped leases is still to come on it. */
  private static final class Reconnect extends Exception {
    private static final long serialVersionUID = 1L;

    Reconnect() {
      super(null, null, false, false);
    }
  }

  /** Fetches for the flow until it has no more work. */
  void work(Flow f, Pipe.Opener opener, URI uri) {
    work(f, opener, uri, null, null);
  }

  /**
   * As {@link #work(Flow, Pipe.Opener, URI)}, the flow's first request sent already (the probe
   * folded into it, on a connection of its own): {@code data} (or null) delivers the range of the
   * lease {@code first}. The pipe is opened at once and the next requests sent on it while that
   * range is read, so the replica never waits.
   */
  void work(Flow f, Pipe.Opener opener, URI uri, Lease first, ReadableByteChannel data) {
    ByteBuffer buf = ByteBuffer.allocate(Fetcher.BUFFER);
    ArrayDeque<Leases.Request> sent = new ArrayDeque<>();
    Set<Lease> ended = Collections.newSetFromMap(new IdentityHashMap<>());
    Leases.Request head = null;
    if (first != null && data != null) {
      head = new Leases.Request(first, first.from, first.sent - first.from);
      sent.add(head);
    } else {
      Fetcher.abandon(leases, first, data);
    }
    try {
      loop(f, opener, uri, new Reader(buf, new ReadBatcher()), sent, ended, head, data);
    } finally {
      if (data != null) {
        try {
          data.close();
        } catch (IOException e) {
          // dropped anyway
        }
      }
    }
  }

  private void loop(
      Flow f,
      Pipe.Opener opener,
      URI uri,
      Reader buf,
      ArrayDeque<Leases.Request> sent,
      Set<Lease> ended,
      Leases.Request firstRequest,
      ReadableByteChannel data) {
    RateRise rise = rises.computeIfAbsent(f.replica, r -> new RateRise(renewMinLatency));
    boolean reconnect = false;
    while (stopped == null) {
      if (sent.isEmpty()) {
        // the first request before connecting: a replica that cannot be reached then fails it and
        // backs off, instead of being asked again at once
        Leases.Request first;
        try {
          first = leases.awaitRequest(f);
        } catch (InterruptedException e) {
          return;
        }
        if (first == null) {
          return;
        }
        sent.add(first);
      }
      Conn c = new Conn(opener, rise);
      try {
        c.pipe = opener.open();
        open.add(c.pipe);
        if (reconnect) {
          rise.reconnected(c.pipe.connectNanos(), System.nanoTime());
        }
        for (Leases.Request r : sent) {
          if (r != firstRequest) {
            c.pipe.send(r.offset(), r.length());
          }
        }
        if (firstRequest != null && sent.peek() == firstRequest) {
          // the first request's answer, on its own connection; the pipe is topped up meanwhile
          topUp(f, c, sent, 0);
          read(f, c, sent, ended, firstRequest, data, buf);
          sent.poll();
        }
        if (serve(f, c, sent, ended, buf)) {
          return;
        }
      } catch (Reconnect e) {
        LOG.debug("[{}] {}: dropping the connection, too much unwanted data on it", id, uri);
        sent.removeIf(r -> ended.contains(r.lease()));
        ended.clear();
      } catch (Fetcher.LocalWriteException e) {
        leases.fail(sent.peek().lease(), e);
        giveBack(sent, ended, "error: " + e.getMessage());
        return;
      } catch (IOException e) {
        SourceException se =
            e instanceof SourceException x
                ? x
                : new SourceException.ConnectionException(
                    uri, "read failed: " + HttpRangeSource.describe(e), e);
        failed(sent, ended, se);
      } catch (InterruptedException e) {
        giveBack(sent, ended, "cancelled: interrupted");
        return;
      } catch (RuntimeException e) {
        LOG.error("[{}] bug while fetching from {}", id, uri, e);
        Leases.Request head = sent.peek();
        if (head != null) {
          leases.fail(head.lease(), e);
        }
        giveBack(sent, ended, "error: " + e);
        return;
      } finally {
        c.close();
      }
      reconnect = true;
    }
    giveBack(sent, ended, stopped);
  }

  /**
   * Sends and reads on one connection (renewed on the way, see {@link Conn}) until the flow has no
   * more work (true) or the connection must go. Requests are removed from {@code sent} once read.
   * The connection goes only while the lease of the answer being read stopped or failed, so no live
   * lease is left with a partly read request.
   */
  private boolean serve(
      Flow f, Conn c, ArrayDeque<Leases.Request> sent, Set<Lease> ended, Reader buf)
      throws IOException, InterruptedException, Reconnect {
    while (true) {
      if (sent.isEmpty()) {
        ended.clear();
        Leases.Request r = leases.awaitRequest(f);
        if (r == null) {
          return true;
        }
        c.target(sent).send(r.offset(), r.length());
        sent.add(r);
      }
      if (renewing && stopped == null) {
        c.maybeRenew(f, sent);
      }
      topUp(f, c, sent, 0);
      Leases.Request head = sent.peek();
      read(f, c, sent, ended, head, c.pipe.next(), buf);
      sent.poll();
      c.answered(f);
    }
  }

  /** Reads the head answer into its lease, or drops what comes after that lease ended. */
  private void read(
      Flow f,
      Conn c,
      ArrayDeque<Leases.Request> sent,
      Set<Lease> ended,
      Leases.Request head,
      ReadableByteChannel ch,
      Reader reader)
      throws IOException, Reconnect, InterruptedException {
    Lease l = head.lease();
    ByteBuffer buf = reader.buf();
    Leases.ChunkWriter writer = Fetcher.writer(buf, sink);
    long done = 0;
    reader.batcher().start();
    while (done < head.length()) {
      if (!ended.contains(l) && l.cancelReason != null) {
        leases.release(l);
        stop(l, sent, ended, head.length() - done, drainLimit(c, reader));
      }
      buf.clear();
      int asked = (int) Math.min(buf.capacity(), head.length() - done);
      buf.limit(asked);
      int n = ch.read(buf);
      done += n;
      if (n > 0) {
        c.rise.received(n, System.nanoTime());
      }
      if (!ended.contains(l)) {
        Leases.Step st = leases.deliver(l, n, writer);
        if (st != Leases.Step.CONTINUE) {
          if (st == Leases.Step.STOP) {
            leases.release(l);
          }
          stop(l, sent, ended, head.length() - done, drainLimit(c, reader));
        }
      }
      topUp(f, c, sent, done);
      reader.batcher().pause(n, asked, head.length() - done);
    }
  }

  /**
   * Unwanted bytes worth reading and dropping rather than reconnecting: {@link #DRAIN_ROUND_TRIPS}
   * round trips at the connection's rate, at least {@link #DRAIN_LIMIT}.
   */
  static long drainLimit(double bytesPerSecond, long latencyNanos) {
    double rtt = Math.max(0, latencyNanos) / 1e9;
    return Math.max(DRAIN_LIMIT, (long) (DRAIN_ROUND_TRIPS * rtt * bytesPerSecond));
  }

  private static long drainLimit(Conn c, Reader reader) {
    return drainLimit(reader.batcher().bytesPerSecond(), c.rtt());
  }

  /**
   * A flow's connection and, while it is renewed, the new one: requests go to the new one as soon
   * as it is open, answers are read from the old one until the {@link #onOld} requests sent there
   * are answered, then the old one is closed.
   */
  private final class Conn {
    final Pipe.Opener opener;
    final RateRise rise;
    Pipe pipe;

    /** The new connection being opened, or null. */
    CompletableFuture<Pipe> opening;

    /** The new connection once open, or null. */
    Pipe fresh;

    /** Requests sent on {@link #pipe} still to be answered while {@link #fresh} is open. */
    int onOld;

    Conn(Pipe.Opener opener, RateRise rise) {
      this.opener = opener;
      this.rise = rise;
    }

    /** Starts opening a new connection in the background if the replica's rate rose. */
    void maybeRenew(Flow f, ArrayDeque<Leases.Request> sent) {
      if (opening != null
          || fresh != null
          || leases.ending()
          || !rise.claim(pipe.connectNanos(), System.nanoTime())) {
        return;
      }
      LOG.debug("[{}] {}: rate rising, renewing connection {}", id, f.replica.uri, f.connection);
      opening = new CompletableFuture<>();
      CompletableFuture<Pipe> o = opening;
      Thread t =
          new Thread(
              () -> {
                try {
                  Pipe p = opener.open();
                  open.add(p);
                  if (!o.complete(p) || stopped != null) {
                    open.remove(p);
                    closeQuietly(p);
                  }
                } catch (IOException | RuntimeException e) {
                  o.completeExceptionally(e);
                }
              },
              "braid-" + id + "-renew-r" + f.replica.index + "c" + f.connection);
      t.setDaemon(true);
      t.start();
    }

    /** The connection new requests go to, {@code sent} holding the requests still unanswered. */
    Pipe target(ArrayDeque<Leases.Request> sent) {
      if (opening != null && opening.isDone()) {
        CompletableFuture<Pipe> o = opening;
        opening = null;
        Pipe p = o.getNow(null);
        if (p == null || o.isCompletedExceptionally()) {
          rise.abandoned(pipe.connectNanos(), System.nanoTime());
        } else {
          fresh = p;
          onOld = sent.size();
          if (onOld == 0) {
            switchOver();
          }
        }
      }
      return fresh != null ? fresh : pipe;
    }

    /** The head answer was read: the old connection goes once all its answers are. */
    void answered(Flow f) {
      if (fresh != null && --onOld <= 0) {
        switchOver();
      }
    }

    private void switchOver() {
      open.remove(pipe);
      closeQuietly(pipe);
      pipe = fresh;
      fresh = null;
      rise.renewed(pipe.connectNanos(), System.nanoTime());
    }

    /** The connection's round trip as its opening took, nanoseconds; -1 if unknown. */
    long rtt() {
      return pipe == null ? -1 : pipe.connectNanos();
    }

    /** Closes the connections, a new one still opening included. */
    void close() {
      for (Pipe p : new Pipe[] {pipe, fresh}) {
        if (p != null) {
          open.remove(p);
          closeQuietly(p);
        }
      }
      if (opening != null) {
        CompletableFuture<Pipe> o = opening;
        opening = null;
        if (!o.complete(null)) {
          Pipe p = o.getNow(null);
          if (p != null) {
            open.remove(p);
            closeQuietly(p);
          }
        }
        rise.abandoned(rtt(), System.nanoTime());
      } else if (fresh != null) {
        rise.abandoned(rtt(), System.nanoTime());
      }
      fresh = null;
    }
  }

  /** A fetch thread's chunk buffer and its reads' pacing. */
  private record Reader(ByteBuffer buf, ReadBatcher batcher) {}

  /** The lease stopped: the rest of its answers is dropped as it comes, unless that is too much. */
  private static void stop(
      Lease l, ArrayDeque<Leases.Request> sent, Set<Lease> ended, long left, long limit)
      throws Reconnect {
    ended.add(l);
    long unwanted = left;
    boolean first = true;
    for (Leases.Request r : sent) {
      if (!first && r.lease() == l) {
        unwanted += r.length();
      }
      first = false;
    }
    if (unwanted > limit) {
      throw new Reconnect();
    }
  }

  /** Sends what the flow should ask for now, {@code headRead} bytes of the head answer read. */
  private void topUp(Flow f, Conn c, ArrayDeque<Leases.Request> sent, long headRead)
      throws IOException {
    long inFlight = -headRead;
    for (Leases.Request r : sent) {
      inFlight += r.length();
    }
    Leases.Request r;
    while ((r = leases.more(f, inFlight)) != null) {
      c.target(sent).send(r.offset(), r.length());
      sent.add(r);
      inFlight += r.length();
    }
  }

  /** The connection failed: the lease being read fails, the others go back without blame. */
  private void failed(ArrayDeque<Leases.Request> sent, Set<Lease> ended, SourceException e) {
    Leases.Request head = sent.peek();
    if (head != null && !ended.contains(head.lease())) {
      Lease l = head.lease();
      if (l.cancelReason != null || stopped != null) {
        leases.release(l);
      } else {
        LOG.warn("[{}] {}", id, OneLine.of(e));
        leases.fail(l, e);
      }
      ended.add(l);
    }
    giveBack(sent, ended, "error: connection lost: " + OneLine.of(e));
  }

  /** Ends every lease still in {@code sent} with the reason and forgets the requests. */
  private void giveBack(ArrayDeque<Leases.Request> sent, Set<Lease> ended, String reason) {
    for (Leases.Request r : sent) {
      Lease l = r.lease();
      if (ended.add(l)) {
        if (l.cancelReason == null) {
          l.cancelReason = reason;
        }
        leases.release(l);
      }
    }
    sent.clear();
    ended.clear();
  }

  private static void closeQuietly(Pipe p) {
    try {
      p.close();
    } catch (IOException | RuntimeException e) {
      // aborting anyway
    }
  }
}
