package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch loop of a flow whose replica takes pipelined requests ({@link Pipe}): it keeps the
 * flow's {@link RequestWindow} of bytes asked for ahead ({@link Leases#more}), so the replica never
 * waits for a request, reads the answers in order into their leases, and keeps its connection for
 * the whole download (TCP's slow start is paid once, not per block). The rest of a lease that
 * stopped early (another flow finished its block, it was cancelled) is read and dropped when it is
 * at most {@link #DRAIN_LIMIT}; beyond that the connection is dropped and the requests of live
 * leases are sent again on a new one. A connection failure fails the lease being read (the replica
 * backs off) and gives the others back without blame.
 */
final class PipelinedFetch {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Unread bytes of stopped leases at most this long are read and dropped, keeping the pipe. */
  static final long DRAIN_LIMIT = 1L << 20;

  private final String id;
  private final Leases leases;
  private final Fetcher.Sink sink;
  private final Set<Pipe> open = ConcurrentHashMap.newKeySet();
  private volatile String stopped;

  PipelinedFetch(String id, Leases leases, Fetcher.Sink sink) {
    this.id = id;
    this.leases = leases;
    this.sink = sink;
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
      Pipe pipe = null;
      try {
        pipe = opener.open();
        open.add(pipe);
        for (Leases.Request r : sent) {
          if (r != firstRequest) {
            pipe.send(r.offset(), r.length());
          }
        }
        if (firstRequest != null && sent.peek() == firstRequest) {
          // the first request's answer, on its own connection; the pipe is topped up meanwhile
          topUp(f, pipe, sent, 0);
          read(f, pipe, sent, ended, firstRequest, data, buf);
          sent.poll();
        }
        if (serve(f, pipe, sent, ended, buf)) {
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
        if (pipe != null) {
          open.remove(pipe);
          closeQuietly(pipe);
        }
      }
    }
    giveBack(sent, ended, stopped);
  }

  /**
   * Sends and reads on one pipe until the flow has no more work (true) or the pipe must go.
   * Requests are removed from {@code sent} once read. The pipe goes only while the lease of the
   * answer being read stopped or failed, so no live lease is left with a partly read request.
   */
  private boolean serve(
      Flow f, Pipe pipe, ArrayDeque<Leases.Request> sent, Set<Lease> ended, Reader buf)
      throws IOException, InterruptedException, Reconnect {
    while (true) {
      if (sent.isEmpty()) {
        ended.clear();
        Leases.Request r = leases.awaitRequest(f);
        if (r == null) {
          return true;
        }
        pipe.send(r.offset(), r.length());
        sent.add(r);
      }
      topUp(f, pipe, sent, 0);
      Leases.Request head = sent.peek();
      read(f, pipe, sent, ended, head, pipe.next(), buf);
      sent.poll();
    }
  }

  /** Reads the head answer into its lease, or drops what comes after that lease ended. */
  private void read(
      Flow f,
      Pipe pipe,
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
        stop(l, sent, ended, head.length() - done);
      }
      buf.clear();
      int asked = (int) Math.min(buf.capacity(), head.length() - done);
      buf.limit(asked);
      int n = ch.read(buf);
      done += n;
      if (!ended.contains(l)) {
        Leases.Step st = leases.deliver(l, n, writer);
        if (st != Leases.Step.CONTINUE) {
          if (st == Leases.Step.STOP) {
            leases.release(l);
          }
          stop(l, sent, ended, head.length() - done);
        }
      }
      topUp(f, pipe, sent, done);
      reader.batcher().pause(n, asked, head.length() - done);
    }
  }

  /** A fetch thread's chunk buffer and its reads' pacing. */
  private record Reader(ByteBuffer buf, ReadBatcher batcher) {}

  /** The lease stopped: the rest of its answers is dropped as it comes, unless that is too much. */
  private static void stop(Lease l, ArrayDeque<Leases.Request> sent, Set<Lease> ended, long left)
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
    if (unwanted > DRAIN_LIMIT) {
      throw new Reconnect();
    }
  }

  /** Sends what the flow should ask for now, {@code headRead} bytes of the head answer read. */
  private void topUp(Flow f, Pipe pipe, ArrayDeque<Leases.Request> sent, long headRead)
      throws IOException {
    long inFlight = -headRead;
    for (Leases.Request r : sent) {
      inFlight += r.length();
    }
    Leases.Request r;
    while ((r = leases.more(f, inFlight)) != null) {
      pipe.send(r.offset(), r.length());
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
