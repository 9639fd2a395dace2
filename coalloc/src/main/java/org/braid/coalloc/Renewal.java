package org.braid.coalloc;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the connection of a flow read with one request per block ({@link Fetcher}) from an HTTP
 * replica when the replica's delivered rate rises ({@link RateRise}: its link has room that its
 * warm connections are slow to use), without a gap and in the middle of a block: the rest of the
 * block from a switch point a few round trips ahead is asked for on a new connection, opened in the
 * background while the old one delivers the bytes before that point; at the point the flow reads on
 * from the new one and the old one is closed. Its later requests go to the new connection: each
 * flow's requests carry a key ({@link #key}), and a pooled connection serves only requests of its
 * key ({@link HttpRangeSource#open(long, long, Object)}). A renewal that fails or comes too late
 * changes nothing: the old connection goes on. Not thread-safe: one per fetch thread.
 */
final class Renewal {
  // logs under the download's name, as the fetch loop does
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /**
   * The switch point lies this many round trips' worth of the old connection's rate ahead: a new
   * connection costs a connect and a request (two round trips) before its first byte.
   */
  static final double AHEAD_ROUND_TRIPS = 3;

  /** A renewal is started only with at least this many switch distances left in the answer. */
  static final double MIN_LEFT = 2;

  /** Waiting at the switch point for the new connection: this many round trips at most. */
  static final double WAIT_ROUND_TRIPS = 4;

  /** The replica's rate is looked at no more often than this. */
  static final long CHECK_NANOS = RateRise.SLOT_NANOS;

  /** The connection key of a flow's requests: a new generation gets a new connection. */
  record Key(int flow, int generation) {}

  private final String id;
  private final Flow flow;
  private final HttpRangeSource src;
  private final RateRise rise;
  private int generation;
  private long nextCheck = System.nanoTime();

  /** The rest of the block asked for on a new connection, or null; it starts at {@link #from}. */
  private CompletableFuture<ReadableByteChannel> fresh;

  private long from = -1;
  private long claimLatency;
  private int renewals;

  Renewal(String id, Flow flow, HttpRangeSource src, RateRise rise) {
    this.id = id;
    this.flow = flow;
    this.src = src;
    this.rise = rise;
  }

  /** The key of the flow's requests now. */
  Key key() {
    return new Key(flow.id, generation);
  }

  /**
   * The flow's next request opens a new connection (its last one was closed): that connection's
   * start is no rise of the replica's rate, so none is claimed for a while.
   */
  void reconnecting(long now) {
    rise.reconnected(Math.max(0, flow.latencyNanos), now);
  }

  /** Connections renewed by this flow so far. */
  int renewals() {
    return renewals;
  }

  /**
   * Counts {@code n} bytes read at {@code now}, and when the replica's rate rose, starts asking for
   * the rest of the request on a new connection: the answer being read is at byte {@code at} of a
   * request that ends at {@code end}, arriving at {@code rate} bytes per second; {@code ending}:
   * the end game (no renewal: rates then follow the work left).
   */
  void received(long n, long at, long end, double rate, BooleanSupplier ending, long now) {
    rise.received(n, now);
    if (fresh != null || now - nextCheck < 0) {
      return;
    }
    nextCheck = now + CHECK_NANOS;
    if (ending.getAsBoolean()) {
      return;
    }
    long latency = flow.latencyNanos;
    long ahead = (long) (rate * Math.max(0, latency) / 1e9 * AHEAD_ROUND_TRIPS);
    if (latency <= 0 || ahead <= 0 || end - at < MIN_LEFT * ahead || !rise.claim(latency, now)) {
      return;
    }
    from = at + ahead;
    claimLatency = latency;
    Key next = new Key(flow.id, generation + 1);
    long start = from;
    long length = end - start;
    CompletableFuture<ReadableByteChannel> f = new CompletableFuture<>();
    fresh = f;
    LOG.debug(
        "[{}] {}: rate rising, renewing connection {} from byte {}",
        id,
        flow.replica.uri,
        flow.connection,
        from);
    Thread t =
        new Thread(
            () -> {
              try {
                ReadableByteChannel ch = src.open(start, length, next);
                if (!f.complete(ch)) {
                  closeQuietly(ch);
                }
              } catch (IOException | RuntimeException e) {
                f.completeExceptionally(e);
              }
            },
            "braid-" + id + "-renew-r" + flow.replica.index + "c" + flow.connection);
    t.setDaemon(true);
    t.start();
  }

  /** Bytes the old connection may still deliver from byte {@code at}: up to the switch point. */
  long limit(long at) {
    return fresh == null ? Long.MAX_VALUE : Math.max(0, from - at);
  }

  /**
   * The channel to read from at byte {@code at}: {@code old}, or at the switch point the new one
   * (the old one's connection then closed); the new one waited for a few round trips at most, else
   * given up.
   */
  ReadableByteChannel at(long at, ReadableByteChannel old) {
    if (fresh == null || at < from) {
      return old;
    }
    CompletableFuture<ReadableByteChannel> f = fresh;
    fresh = null;
    long wait = (long) (WAIT_ROUND_TRIPS * claimLatency) + TimeUnit.MILLISECONDS.toNanos(100);
    ReadableByteChannel ch;
    try {
      ch = f.get(wait, TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.debug("[{}] {}: renewal given up: {}", id, flow.replica.uri, describe(e));
      drop(f);
      rise.abandoned(claimLatency, System.nanoTime());
      return old;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drop(f);
      rise.abandoned(claimLatency, System.nanoTime());
      return old;
    }
    if (old instanceof KeptConnection k) {
      k.dropConnection();
    }
    closeQuietly(old);
    generation++;
    renewals++;
    rise.renewed(claimLatency, System.nanoTime());
    return ch;
  }

  /** The request ended before the switch: a new connection still opening is closed when open. */
  void abandon() {
    if (fresh != null) {
      drop(fresh);
      fresh = null;
      rise.abandoned(claimLatency, System.nanoTime());
    }
  }

  private static void drop(CompletableFuture<ReadableByteChannel> f) {
    if (!f.complete(null) && !f.isCompletedExceptionally()) {
      ReadableByteChannel ch = f.getNow(null);
      if (ch != null) {
        closeQuietly(ch);
      }
    }
  }

  private static String describe(Exception e) {
    Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    return c instanceof TimeoutException ? "no answer in time" : OneLine.of(c);
  }

  private static void closeQuietly(ReadableByteChannel ch) {
    if (ch instanceof KeptConnection k) {
      k.dropConnection();
    }
    try {
      ch.close();
    } catch (IOException | RuntimeException e) {
      // dropped anyway
    }
  }
}
