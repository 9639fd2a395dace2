package org.braid.coalloc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch loop: a thread per flow takes the flow's next request from the {@link Leases}, reads it
 * from the flow's {@link RangeSource} in {@link #BUFFER}-byte chunks and hands each chunk to the
 * scheduler, which writes through the {@link Sink} what nobody wrote yet. A replica's failure goes
 * to the scheduler as a {@link SourceException}; a failed write is not the replica's fault and
 * stops the download. Works with any range source and any {@link Leases}. Thread-safe.
 */
final class Fetcher {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Bytes read per chunk: one buffer of this size per flow. */
  static final int BUFFER = 64 * 1024;

  /**
   * Bytes read per chunk from a replica read over near connections ({@link HttpRangeSource#near}),
   * into a direct buffer: the kernel copies from the socket straight into it and the part file's
   * write takes it from there, with no copy in Java, and reads this large take the fetching thread
   * half the CPU of 64 KiB ones at memory speed (issue 17; docs/download.md, "CPU").
   */
  static final int NEAR_BUFFER = 1 << 20;

  /** Where fetched bytes go. */
  @FunctionalInterface
  interface Sink {
    /** Writes all remaining bytes of {@code src} at the given file position. */
    void write(ByteBuffer src, long position) throws IOException;
  }

  /** Holds the fetchers back while the work they feed (the whole-file hash) falls behind. */
  @FunctionalInterface
  interface Pacer {
    /** Waits as long as the fetchers should; returns the nanoseconds waited. */
    long pace() throws InterruptedException;
  }

  private static final Pacer UNPACED = () -> 0;

  private final String id;
  private final Leases leases;
  private volatile Pacer pacer = UNPACED;
  private final Sink sink;
  private final Map<Lease, ReadableByteChannel> open = new ConcurrentHashMap<>();
  private final Guards guards;
  private final Throttle throttle;
  private final Map<Lease, Watched> speeds = new ConcurrentHashMap<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final AtomicBoolean watchdog = new AtomicBoolean();

  /** How often the watchdog looks at the requests' speeds. */
  private static final long WATCH_MILLIS = 200;

  /** The loop for sources read with pipelined requests, or null if none is. */
  private final PipelinedFetch pipelined;

  /** By replica, the signal that renews its HTTP flows' connections ({@link Renewal}). */
  private final Map<Replica, RateRise> rises = new ConcurrentHashMap<>();

  /**
   * Whether connections are renewed on a rising rate ({@link Renewal}): off by default, on with the
   * system property {@code braid.renewSequential=true} (e.g. {@code
   * BRAID_JAVA_OPTS=-Dbraid.renewSequential=true}). Measured on the testbed in session 11 and not
   * adopted: in 4w at 50-200 ms four of nine transfers took 13.8-15.1 s with it, none of nine
   * without (12.5-13.4 s), alternating in the same runs; the rate signal, with a round trip of
   * silence per block in each flow, also fired on replicas that had slowed down or were near the
   * end (docs/download.md).
   */
  private volatile boolean renewing = "true".equals(System.getProperty("braid.renewSequential"));

  private volatile long renewMinLatency = RateRise.MIN_LATENCY_NANOS;

  /** A fetch loop for the download with the given log id. */
  Fetcher(String id, Leases leases, Sink sink) {
    this(id, leases, sink, false);
  }

  /** As above; with {@code pipelining}, sources that have a {@link Pipe} are read through one. */
  Fetcher(String id, Leases leases, Sink sink, boolean pipelining) {
    this(id, leases, sink, pipelining, Guards.DEFAULT);
  }

  /**
   * As above, keeping the guards' low-speed limit (per request) and rate limit (all requests
   * together) for sources read without pipelining.
   */
  Fetcher(String id, Leases leases, Sink sink, boolean pipelining, Guards guards) {
    this.id = id;
    this.leases = leases;
    this.sink = sink;
    this.pipelined = pipelining ? new PipelinedFetch(id, leases, sink) : null;
    this.guards = guards;
    this.throttle = new Throttle(guards.maxBytesPerSecond());
  }

  /** Renews connections on a rising rate, to replicas however near (tests on this machine). */
  void renewNearReplicas() {
    renewing = true;
    renewMinLatency = 0;
  }

  /** Connection renewals claimed so far for the replica ({@link Renewal}). */
  int renewals(Replica r) {
    RateRise rise = rises.get(r);
    return rise == null ? 0 : rise.renewals();
  }

  /** From now on each chunk is read only once the pacer lets it ({@link PrefixHasher#pace}). */
  void pace(Pacer p) {
    pacer = p;
  }

  /** Starts a daemon thread that fetches for the flow from the source until no lease is left. */
  Thread start(Flow f, RangeSource src) {
    return start(f, src, null, null);
  }

  /**
   * As {@link #start(Flow, RangeSource)}, the flow's first request already sent: {@code data} (or
   * null) delivers the range of the lease {@code first}, or is closed unread when that is null.
   */
  Thread start(Flow f, RangeSource src, Lease first, ReadableByteChannel data) {
    Pipe.Opener pipe = pipelined == null ? null : Pipe.opener(src);
    Thread t =
        new Thread(
            pipe == null
                ? () -> work(f, src, first, data)
                : () -> pipelined.work(f, pipe, src.uri(), first, data));
    t.setName("braid-" + id + "-r" + f.replica.index + "c" + f.connection);
    t.setDaemon(true);
    threads.add(t);
    t.start();
    if (guards.lowSpeedLimit() > 0 && watchdog.compareAndSet(false, true)) {
      Thread w = new Thread(this::watch, "braid-" + id + "-lowspeed");
      w.setDaemon(true);
      w.start();
    }
    return t;
  }

  /**
   * Cancels every request still reading, with the given reason, and closes its channel: for
   * whatever still runs once the download is over (slower duplicates, stalled reads).
   */
  void stopAll(String reason) {
    if (pipelined != null) {
      pipelined.stopAll(reason);
    }
    for (Map.Entry<Lease, ReadableByteChannel> e : open.entrySet()) {
      e.getKey().cancelReason = reason;
      closeQuietly(e.getValue());
    }
  }

  private void work(Flow f, RangeSource src, Lease first, ReadableByteChannel data) {
    ByteBuffer buf = buffer(src);
    ReadBatcher batcher = new ReadBatcher();
    Renewal renewal =
        src instanceof HttpRangeSource h && renewing
            ? new Renewal(
                id, f, h, rises.computeIfAbsent(f.replica, r -> new RateRise(renewMinLatency)))
            : null;
    Reader reader = new Reader(src, buf, batcher, renewal);
    if (data != null && first != null) {
      fetch(first, reader, data);
    } else {
      abandon(leases, first, data);
    }
    while (true) {
      Lease l;
      try {
        l = leases.await(f);
      } catch (InterruptedException e) {
        return;
      }
      if (l == null) {
        return;
      }
      fetch(l, reader, null);
    }
  }

  /**
   * A fetch thread's chunk buffer: a direct one of {@link #NEAR_BUFFER} bytes for a source whose
   * channels read into it without a copy ({@link HttpRangeSource#near}), else a heap one of {@link
   * #BUFFER} bytes (the other sources read through streams into an array).
   */
  static ByteBuffer buffer(RangeSource src) {
    return src instanceof HttpRangeSource h && h.near()
        ? ByteBuffer.allocateDirect(NEAR_BUFFER)
        : ByteBuffer.allocate(BUFFER);
  }

  /** A fetch thread's source, chunk buffer, read pacing and connection renewal (or null). */
  private record Reader(RangeSource src, ByteBuffer buf, ReadBatcher batcher, Renewal renewal) {}

  /**
   * Ends a first request that cannot be read: its data without a lease is closed unread, its lease
   * without data (the answer brought none) freed without blame.
   */
  static void abandon(Leases leases, Lease first, ReadableByteChannel data) {
    if (data != null) {
      closeQuietly(data);
    } else if (first != null) {
      first.cancelReason = "cancelled: the first answer brought no data";
      leases.release(first);
    }
  }

  /** Thrown by the writer so that local disk failures are told apart from replica failures. */
  static final class LocalWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    LocalWriteException(IOException cause) {
      super("cannot write the output: " + cause.getMessage(), cause);
    }
  }

  /** Fetches the lease's range: from {@code opened} if its request was sent already (or null). */
  private void fetch(Lease l, Reader reader, ReadableByteChannel opened) {
    RangeSource src = reader.src();
    ReadableByteChannel ch = opened;
    LowSpeed speed =
        new LowSpeed(src.uri(), guards.lowSpeedLimit(), guards.lowSpeedTime(), System.nanoTime());
    try {
      if (ch == null) {
        long end = l.requestEnd();
        if (reader.renewal() != null && l.flow.cold) {
          reader.renewal().reconnecting(System.nanoTime());
        }
        ch =
            reader.renewal() != null
                ? ((HttpRangeSource) src).open(l.from, end - l.from, reader.renewal().key())
                : src.open(l.from, end - l.from);
      }
      if (ch instanceof ParallelChannel p) {
        l.streams = p.streams();
      }
      open.put(l, ch);
      speeds.put(l, new Watched(speed, ch));
      read(l, ch, reader, speed);
    } catch (SourceException e) {
      failed(l, speed.check(System.nanoTime()) ? speed.exception() : e);
    } catch (LocalWriteException e) {
      leases.fail(l, e);
    } catch (IOException e) {
      if (speed.check(System.nanoTime())) {
        // the watchdog closed the channel of a read that waited too long for too few bytes
        failed(l, speed.exception());
        return;
      }
      failed(
          l,
          new SourceException.ConnectionException(
              src.uri(), "read failed: " + HttpRangeSource.describe(e), e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      leases.release(l);
    } catch (RuntimeException e) {
      LOG.error("[{}] bug while fetching from {}", id, src.uri(), e);
      leases.fail(l, e);
    } finally {
      if (reader.renewal() != null) {
        reader.renewal().abandon();
      }
      speeds.remove(l);
      // the channel read last: a renewal may have replaced the one opened here
      ReadableByteChannel last = open.remove(l);
      if (last != null) {
        closeQuietly(last);
        if (last instanceof KeptConnection k) {
          l.flow.cold = !k.connectionKept();
        }
      }
      if (ch != null && ch != last) {
        closeQuietly(ch);
      }
    }
  }

  /** A request's low-speed watch and its channel, for the watchdog. */
  private record Watched(LowSpeed speed, ReadableByteChannel channel) {}

  /**
   * Closes the channel of each request that has been too slow for the low-speed time, so that a
   * read waiting for bytes that come too slowly ends at once; runs while any fetch thread does.
   */
  private void watch() {
    while (threads.stream().anyMatch(Thread::isAlive)) {
      long now = System.nanoTime();
      for (Watched w : speeds.values()) {
        if (w.speed().check(now)) {
          closeQuietly(w.channel());
        }
      }
      try {
        Thread.sleep(WATCH_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Reads the lease's chunks until its range is done, it must stop, or the channel ends; the
   * connection may be renewed on the way ({@link Renewal}). Each chunk is one call of {@link
   * Chunks#next}: a loop that runs a few thousand times per download is never compiled by the JIT,
   * while a method called that often is (issue 17: the loop's interpreted frames took 4% of a 2 GB
   * download's CPU from four local mirrors).
   */
  private void read(Lease l, ReadableByteChannel opened, Reader reader, LowSpeed speed)
      throws IOException, InterruptedException {
    Chunks c = new Chunks(l, opened, reader, speed);
    reader.batcher().start();
    while (c.next()) {
      // one chunk per call
    }
  }

  /** One request's reading state: where it is, its channel (renewals replace it) and guards. */
  private final class Chunks {
    private final Lease l;
    private final Reader reader;
    private final LowSpeed speed;
    private final Leases.ChunkWriter writer;
    private final long end;
    private ReadableByteChannel ch;
    private long at;

    Chunks(Lease l, ReadableByteChannel ch, Reader reader, LowSpeed speed) {
      this.l = l;
      this.ch = ch;
      this.reader = reader;
      this.speed = speed;
      this.writer = writer(reader.buf(), sink);
      this.end = l.requestEnd();
      this.at = l.from;
    }

    /** Reads, delivers and paces one chunk; false once the request is over. */
    boolean next() throws IOException, InterruptedException {
      ByteBuffer buf = reader.buf();
      Renewal renewal = reader.renewal();
      long waited = pacer.pace();
      if (l.cancelReason != null) {
        leases.release(l);
        return false;
      }
      int asked = throttle.chunk(buf.capacity());
      if (renewal != null) {
        ch = switchTo(l, renewal.at(at, ch), ch, speed);
        asked = (int) Math.min(asked, renewal.limit(at));
      }
      buf.clear().limit(asked);
      int n = ch.read(buf);
      if (n < 0) {
        leases.release(l);
        return false;
      }
      if (n == 0) {
        return true;
      }
      Leases.Step st = leases.deliver(l, n, writer);
      long paused = throttle.take(n) + waited;
      if (st != Leases.Step.CONTINUE) {
        if (st == Leases.Step.STOP) {
          leases.release(l);
        }
        // the rest of a request cut short (a split, a cut-back, a lost race) is read and dropped
        // when that costs less than a new connection
        if (ch instanceof KeptConnection k) {
          k.drainUpTo(drainLimit(reader.batcher().bytesPerSecond(), l.flow.latencyNanos));
        }
        return false;
      }
      long now = System.nanoTime();
      speed.received(n, paused, now);
      at += n;
      if (renewal != null) {
        renewal.received(n, at, end, reader.batcher().bytesPerSecond(), leases::ending, now);
      }
      reader.batcher().pause(n, asked, end - at);
      return true;
    }
  }

  /** The rest of a request cut short is always read and dropped up to this many bytes. */
  static final long MIN_DRAIN = 64 * 1024;

  /**
   * How much of a request cut short is read and dropped to keep its connection: what arrives in
   * {@link PipelinedFetch#DRAIN_ROUND_TRIPS} round trips at the connection's rate, at least {@link
   * #MIN_DRAIN}. A new connection costs a connect and TCP's start again; the flow waits for the
   * drain before its next request (unlike a pipelined one, whose next requests are on their way
   * meanwhile), so there is no larger floor: 1 MiB at 10 Mbit/s would be 0.8 s.
   */
  static long drainLimit(double bytesPerSecond, long latencyNanos) {
    double rtt = Math.max(0, latencyNanos) / 1e9;
    return Math.max(
        MIN_DRAIN, (long) (PipelinedFetch.DRAIN_ROUND_TRIPS * rtt * Math.max(0, bytesPerSecond)));
  }

  /** Reads on from {@code next} (a renewed connection) if it is not {@code ch}. */
  private ReadableByteChannel switchTo(
      Lease l, ReadableByteChannel next, ReadableByteChannel ch, LowSpeed speed) {
    if (next != ch) {
      open.put(l, next);
      speeds.put(l, new Watched(speed, next));
    }
    return next;
  }

  /** Writes parts of the chunk in {@code buf} through the sink; disk failures told apart. */
  static Leases.ChunkWriter writer(ByteBuffer buf, Sink sink) {
    return (pos, off, len) -> {
      ByteBuffer d = buf.duplicate();
      d.position(off).limit(off + len);
      try {
        sink.write(d, pos);
      } catch (IOException e) {
        throw new LocalWriteException(e);
      }
    };
  }

  private void failed(Lease l, SourceException e) {
    if (l.cancelReason != null) {
      leases.release(l);
      return;
    }
    LOG.warn("[{}] {}", id, OneLine.of(e));
    leases.fail(l, e);
  }

  private static void closeQuietly(ReadableByteChannel ch) {
    try {
      ch.close();
    } catch (IOException | RuntimeException e) {
      // aborting anyway
    }
  }
}
