package org.braid.provider.publish;

import java.io.IOException;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.DefaultBHttpServerConnection;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.io.CloseMode;

/**
 * The HTTP server's open connections and their deadlines ({@link HttpLimits}): a connection waiting
 * for a request head must complete it within the head timeout, a request must be answered within
 * the request timeout; a reaper thread closes the connections past their deadline. A connection
 * over the limit closes the one that has waited longest for a head instead, when there is one (slow
 * clients cannot keep real requests out); otherwise it is marked to be answered 503. Thread-safe.
 */
final class Connections implements AutoCloseable {

  /** How often deadlines are checked. */
  private static final long TICK_MILLIS = 100;

  private final HttpLimits limits;
  private final Http1Config h1;
  private final ProviderMetrics metrics;
  private final AtomicInteger open = new AtomicInteger();
  private final Set<BoundedConnection> live = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService reaper;

  Connections(HttpLimits limits, Http1Config h1, ProviderMetrics metrics) {
    this.limits = limits;
    this.h1 = h1;
    this.metrics = metrics;
    this.reaper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "braid-http-deadlines");
              t.setDaemon(true);
              return t;
            });
    reaper.scheduleWithFixedDelay(this::reap, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** A connection for an accepted socket (the server's connection factory). */
  BoundedConnection accept(Socket socket) throws IOException {
    boolean over = open.incrementAndGet() > limits.maxConnections() && !evictOldestWaiting();
    BoundedConnection c = new BoundedConnection(over);
    c.bind(socket);
    live.add(c);
    return c;
  }

  /** Closes the connection waiting longest for a request head; false when none is waiting. */
  private boolean evictOldestWaiting() {
    BoundedConnection oldest = null;
    for (BoundedConnection c : live) {
      if (c.waitingForHead && (oldest == null || c.since - oldest.since < 0)) {
        oldest = c;
      }
    }
    if (oldest == null) {
      return false;
    }
    metrics.closed("evicted");
    oldest.close(CloseMode.IMMEDIATE);
    return true;
  }

  private void reap() {
    long now = System.nanoTime();
    for (BoundedConnection c : live) {
      if (now - c.deadline > 0) {
        metrics.closed(c.waitingForHead ? "head_timeout" : "request_timeout");
        c.close(CloseMode.IMMEDIATE);
      }
    }
  }

  @Override
  public void close() {
    reaper.shutdownNow();
  }

  /**
   * A connection with deadlines, that turns an over-long request head into a request the router
   * answers with 431 and closes, instead of dropping the connection without an answer, and marks
   * the requests of a connection over the connection limit so that the router answers them 503.
   */
  final class BoundedConnection extends DefaultBHttpServerConnection {
    private final AtomicBoolean counted = new AtomicBoolean(true);
    private final boolean overloaded;
    volatile boolean waitingForHead = true;
    volatile long since = System.nanoTime();
    volatile long deadline = since + limits.headTimeout().toNanos();

    BoundedConnection(boolean overloaded) {
      super("http", h1);
      this.overloaded = overloaded;
    }

    /** Whether this connection came over the limit with no waiting one to close. */
    boolean overloaded() {
      return overloaded;
    }

    @Override
    public ClassicHttpRequest receiveRequestHeader() throws HttpException, IOException {
      long now = System.nanoTime();
      since = now;
      deadline = now + limits.headTimeout().toNanos();
      waitingForHead = true;
      ClassicHttpRequest r;
      try {
        r = super.receiveRequestHeader();
      } catch (MessageConstraintException e) {
        r = new BasicClassicHttpRequest("GET", "/");
        r.setHeader(ProviderHttpServer.OVERSIZE, e.getMessage());
        r.setHeader("Connection", "close");
      }
      deadline = System.nanoTime() + limits.requestTimeout().toNanos();
      waitingForHead = false;
      if (r != null && overloaded) {
        r.setHeader(ProviderHttpServer.OVERLOAD, "true");
        r.setHeader("Connection", "close");
      }
      return r;
    }

    @Override
    public void close() throws IOException {
      release();
      super.close();
    }

    @Override
    public void close(CloseMode mode) {
      release();
      super.close(mode);
    }

    private void release() {
      if (counted.getAndSet(false)) {
        live.remove(this);
        open.decrementAndGet();
      }
    }
  }
}
