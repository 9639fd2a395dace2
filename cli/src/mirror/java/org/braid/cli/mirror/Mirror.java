package org.braid.cli.mirror;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * An HTTP server on 127.0.0.1 that serves one file with range requests at a limited rate (a token
 * bucket shared by all its connections), and can misbehave on purpose: die or stall after some
 * bytes, ignore ranges, send a wrong Content-Range, corrupt a region, or answer 503. For demos and
 * tests only. Thread-safe.
 */
public final class Mirror implements Closeable {
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  private static final int CHUNK = 16 * 1024;

  /** Ways the mirror misbehaves. */
  public enum Fault {
    /** Behave. */
    NONE,
    /** Answer range requests with 200 and the whole file (after {@code faultAfter} bytes). */
    IGNORE_RANGE,
    /** Answer 206 with a Content-Range one byte off the request (after {@code faultAfter}). */
    WRONG_CONTENT_RANGE,
    /** Flip every byte in the region given by {@link Builder#faultAfter} and 64 KiB after it. */
    CORRUPT,
    /** Cut the connection after {@link Builder#faultAfter} bytes, then refuse connections. */
    DIE,
    /** Stop sending after {@link Builder#faultAfter} bytes, keeping connections open. */
    STALL,
    /** Answer 503 to the first three requests after {@link Builder#faultAfter} bytes. */
    ERROR_503,
    /**
     * After {@code faultAfter} bytes, send range answers chunked (no Content-Length) with 100 bytes
     * more than asked for.
     */
    LONG_BODY
  }

  private final Path file;
  private final long size;
  private final String etag;
  private final String lastModified;
  private final Fault fault;
  private final long faultAfter;
  private final HttpServer server;
  private final String bearer;
  private final URI redirect;
  private final Map<String, String> extraHeaders;
  private volatile String lastAuthorization;

  /** The request headers of the latest {@link #RECENT} requests (guarded by itself). */
  private final ArrayDeque<Headers> recent = new ArrayDeque<>();

  private static final int RECENT = 1000;
  private final ExecutorService pool;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicLong served = new AtomicLong();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger errorsSent = new AtomicInteger();
  private volatile boolean dead;
  private volatile double rate;
  private final double catchUpSeconds;
  private double tokens;
  private long lastRefill = System.nanoTime();

  /** Requests being handled now, since when some were, and the time some were (guarded by this). */
  private int handling;

  private long handlingSince;
  private long handledNanos;

  private Mirror(Builder b) throws IOException {
    this.file = b.file;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      this.size = ch.size();
    }
    long mtime = java.nio.file.Files.getLastModifiedTime(file).toMillis();
    this.etag = "\"" + Long.toHexString(mtime) + "-" + Long.toHexString(size) + "\"";
    this.lastModified =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.Instant.ofEpochMilli(mtime).atOffset(ZoneOffset.UTC));
    this.fault = b.fault;
    this.faultAfter = b.faultAfter;
    this.rate = b.rate;
    this.catchUpSeconds = b.catchUp.toNanos() / 1e9;
    this.bearer = b.bearer;
    this.redirect = b.redirect;
    this.extraHeaders = Map.copyOf(b.headers);
    InetSocketAddress addr = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (b.tls != null) {
      HttpsServer https = HttpsServer.create(addr, 64);
      boolean needClientAuth = b.needClientAuth;
      https.setHttpsConfigurator(
          new HttpsConfigurator(b.tls) {
            @Override
            public void configure(HttpsParameters params) {
              javax.net.ssl.SSLParameters p = getSSLContext().getDefaultSSLParameters();
              p.setNeedClientAuth(needClientAuth);
              params.setSSLParameters(p);
            }
          });
      this.server = https;
    } else {
      this.server = HttpServer.create(addr, 64);
    }
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "mirror-" + server.getAddress().getPort());
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * A builder for a mirror of the given file.
   *
   * @throws NullPointerException if file is null
   */
  public static Builder builder(Path file) {
    return new Builder(Objects.requireNonNull(file, "file"));
  }

  /** The URL of the file on this mirror: {@code http://127.0.0.1:PORT/NAME}. */
  public URI uri() {
    return URI.create(
        (server instanceof HttpsServer ? "https" : "http")
            + "://127.0.0.1:"
            + server.getAddress().getPort()
            + "/"
            + file.getFileName());
  }

  /** Body bytes sent so far. */
  public long servedBytes() {
    return served.get();
  }

  /**
   * Nanoseconds during which at least one request was being handled so far (from its arrival to its
   * last byte written): with {@link #servedBytes()}, the rate the mirror really delivered.
   */
  public synchronized long busyNanos() {
    return handledNanos + (handling > 0 ? System.nanoTime() - handlingSince : 0);
  }

  private synchronized void handling(boolean starts) {
    long now = System.nanoTime();
    if (starts && handling++ == 0) {
      handlingSince = now;
      // an idle mirror keeps at most the small burst, however long it was idle
      double r = rate;
      tokens = Math.min(tokens + (now - lastRefill) * r / 1e9, burst(r));
      lastRefill = now;
    } else if (!starts && --handling == 0) {
      handledNanos += now - handlingSince;
    }
  }

  /** Requests received so far. */
  public int requests() {
    return requests.get();
  }

  /** The Authorization header of the latest request, or null. */
  public String lastAuthorization() {
    return lastAuthorization;
  }

  /**
   * The value of request header {@code name} in each of the latest 1000 requests, oldest first
   * (null where a request had none).
   */
  public List<String> recentHeader(String name) {
    List<String> values = new ArrayList<>();
    synchronized (recent) {
      recent.forEach(h -> values.add(h.getFirst(name)));
    }
    return values;
  }

  /** Changes the rate limit (bytes per second, 0 for none) while running. */
  public void setRate(double bytesPerSecond) {
    this.rate = bytesPerSecond;
  }

  @Override
  public void close() {
    dead = true;
    closed.countDown();
    server.stop(0);
    pool.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    requests.incrementAndGet();
    handling(true);
    try {
      respond(ex);
    } finally {
      handling(false);
    }
  }

  private void respond(HttpExchange ex) throws IOException {
    try (ex) {
      if (dead) {
        return;
      }
      lastAuthorization = ex.getRequestHeaders().getFirst("Authorization");
      synchronized (recent) {
        if (recent.size() == RECENT) {
          recent.removeFirst();
        }
        recent.addLast(ex.getRequestHeaders());
      }
      if (redirect != null) {
        ex.getResponseHeaders().set("Location", redirect.toString());
        ex.sendResponseHeaders(302, -1);
        return;
      }
      if (bearer != null
          && !("Bearer " + bearer).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        ex.sendResponseHeaders(401, -1);
        return;
      }
      if (fault == Fault.ERROR_503 && served.get() >= faultAfter && errorsSent.get() < 3) {
        errorsSent.incrementAndGet();
        ex.sendResponseHeaders(503, -1);
        return;
      }
      var h = ex.getResponseHeaders();
      h.set("Accept-Ranges", "bytes");
      h.set("ETag", etag);
      h.set("Last-Modified", lastModified);
      extraHeaders.forEach(h::set);
      String range = ex.getRequestHeaders().getFirst("Range");
      long first = 0;
      long last = size - 1;
      boolean partial = false;
      boolean faulty = served.get() >= faultAfter;
      if (range != null && !(fault == Fault.IGNORE_RANGE && faulty)) {
        Matcher m = RANGE.matcher(range.trim());
        if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
          ex.sendResponseHeaders(400, -1);
          return;
        }
        if (m.group(1).isEmpty()) {
          first = Math.max(0, size - Long.parseLong(m.group(2)));
        } else {
          first = Long.parseLong(m.group(1));
          if (!m.group(2).isEmpty()) {
            last = Math.min(last, Long.parseLong(m.group(2)));
          }
        }
        if (first >= size) {
          h.set("Content-Range", "bytes */" + size);
          ex.sendResponseHeaders(416, -1);
          return;
        }
        partial = true;
      }
      long length = last - first + 1;
      if (partial) {
        long shown = fault == Fault.WRONG_CONTENT_RANGE && faulty ? first + 1 : first;
        h.set("Content-Range", "bytes " + shown + "-" + (shown + length - 1) + "/" + size);
      }
      boolean head = "HEAD".equals(ex.getRequestMethod());
      if (fault == Fault.LONG_BODY && faulty && partial && !head) {
        ex.sendResponseHeaders(206, 0); // chunked
        body(ex.getResponseBody(), first, Math.min(length + 100, size - first));
        return;
      }
      ex.sendResponseHeaders(partial ? 206 : 200, head ? -1 : (length == 0 ? -1 : length));
      if (!head) {
        body(ex.getResponseBody(), first, length);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void body(OutputStream out, long first, long length)
      throws IOException, InterruptedException {
    ByteBuffer buf = ByteBuffer.allocate(CHUNK);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long pos = first;
      long end = first + length;
      while (pos < end) {
        int n = (int) Math.min(CHUNK, end - pos);
        acquire(n);
        if (dead) {
          throw new IOException("mirror closed");
        }
        long total = served.get();
        if (total >= faultAfter && (fault == Fault.DIE || fault == Fault.STALL)) {
          if (fault == Fault.DIE) {
            dead = true;
            new Thread(() -> server.stop(0)).start();
            throw new IOException("mirror died");
          }
          closed.await(); // stall until the mirror is closed
          throw new IOException("mirror closed");
        }
        buf.clear().limit(n);
        while (buf.hasRemaining()) {
          if (ch.read(buf, pos + buf.position()) < 0) {
            throw new IOException("file shrank");
          }
        }
        byte[] a = buf.array();
        if (fault == Fault.CORRUPT) {
          for (int i = 0; i < n; i++) {
            long p = pos + i;
            if (p >= faultAfter && p < faultAfter + 65536) {
              a[i] = (byte) ~a[i];
            }
          }
        }
        out.write(a, 0, n);
        served.addAndGet(n);
        pos += n;
      }
      out.flush();
    }
  }

  /** The bucket's size at rate {@code r}: 10 ms of it, at least two chunks. */
  private static double burst(double r) {
    return Math.max(CHUNK * 2, r * 0.01);
  }

  /**
   * Token bucket: waits until n bytes may be sent at the current rate. While it handles requests,
   * the bucket holds up to the {@link Builder#catchUp} time's worth of tokens.
   */
  private void acquire(int n) throws InterruptedException {
    while (true) {
      long waitNanos;
      synchronized (this) {
        double r = rate;
        if (r <= 0) {
          return;
        }
        long now = System.nanoTime();
        double cap = Math.max(burst(r), r * catchUpSeconds);
        tokens = Math.min(cap, tokens + (now - lastRefill) * r / 1e9);
        lastRefill = now;
        if (tokens >= n) {
          tokens -= n;
          return;
        }
        waitNanos = (long) ((n - tokens) * 1e9 / r);
      }
      if (closed.await(Math.max(waitNanos, 100_000), TimeUnit.NANOSECONDS)) {
        return;
      }
    }
  }

  /** Builds a {@link Mirror}. */
  public static final class Builder {
    private final Path file;
    private double rate;
    private Duration catchUp = Duration.ZERO;
    private Fault fault = Fault.NONE;
    private long faultAfter;
    private String bearer;
    private URI redirect;
    private SSLContext tls;
    private boolean needClientAuth;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Builder(Path file) {
      this.file = file;
    }

    /**
     * The rate limit in bytes per second; 0 for none. Default: none.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder rate(double bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("rate must not be negative: " + bytesPerSecond);
      }
      this.rate = bytesPerSecond;
      return this;
    }

    /**
     * How far behind its rate a busy mirror may fall and still catch up: time its sending threads
     * were not scheduled (a loaded machine) is made good from a bucket of up to this much of the
     * rate, while requests are being handled; an idle mirror keeps 10 ms of it. Default: zero (the
     * 10 ms bucket only: a starved mirror falls behind its rate).
     *
     * @throws IllegalArgumentException if negative or over a second
     */
    public Builder catchUp(Duration d) {
      if (d.isNegative() || d.compareTo(Duration.ofSeconds(1)) > 0) {
        throw new IllegalArgumentException("catch-up must be within [0, 1 s]: " + d);
      }
      this.catchUp = d;
      return this;
    }

    /** The fault to inject. Default: {@link Fault#NONE}. */
    public Builder fault(Fault f) {
      this.fault = Objects.requireNonNull(f, "fault");
      return this;
    }

    /** Bytes served (for DIE, STALL, ERROR_503) or the file offset (CORRUPT) of the fault. */
    public Builder faultAfter(long bytes) {
      this.faultAfter = bytes;
      return this;
    }

    /** Answers every request with a 302 redirect to this URL. */
    public Builder redirectTo(URI target) {
      this.redirect = Objects.requireNonNull(target, "target");
      return this;
    }

    /**
     * Sends this header with every file answer (e.g. a {@code Repr-Digest}); repeatable. Default:
     * none.
     */
    public Builder header(String name, String value) {
      headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Answers 401 unless the request carries {@code Authorization: Bearer TOKEN}. */
    public Builder bearerToken(String token) {
      this.bearer = token;
      return this;
    }

    /**
     * Serves HTTPS with this context (its key material is the server certificate); with {@code
     * needClientAuth} clients must present a certificate the context trusts.
     */
    public Builder tls(SSLContext context, boolean needClientAuth) {
      this.tls = Objects.requireNonNull(context, "context");
      this.needClientAuth = needClientAuth;
      return this;
    }

    /**
     * Starts the mirror.
     *
     * @throws IOException if the file cannot be read or the port cannot be opened
     */
    public Mirror start() throws IOException {
      return new Mirror(this);
    }
  }
}
