package org.braid.broker;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.ProviderApi;
import org.braid.infoprovider.wire.SeriesJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery over HTTP: queries information providers' {@code /v1/ads} (and their latest probe
 * values from {@code /v1/series}) concurrently with HttpClient 5 async, and caches the answers.
 *
 * <p>All queries of one {@link #fetch} call share one deadline: the timeout. A provider that has
 * not answered by then is cancelled and reported with a reason; it costs no more than the timeout.
 * Successful answers are cached for the TTL, failures for the failure TTL (so a dead provider is
 * not waited on again at every request). Thread-safe.
 */
final class HttpDiscovery implements Discovery {

  private static final Logger LOG = LoggerFactory.getLogger(HttpDiscovery.class);

  /** The most {@link #close} waits for the client's I/O thread to stop by itself. */
  static final TimeValue SHUTDOWN_WAIT = TimeValue.ofSeconds(1);

  private final Duration timeout;
  private final Duration ttl;
  private final Duration failureTtl;
  private final long maxBytes;
  private final InstantSource clock;
  private final CloseableHttpAsyncClient client;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Every request not answered yet, failed by {@link #close} (the client leaves them waiting). */
  private final Set<CompletableFuture<Body>> open = ConcurrentHashMap.newKeySet();

  private final Map<URI, ProviderAnswer> cache = new ConcurrentHashMap<>();
  private final boolean loads;
  private final String clientPeer;

  HttpDiscovery(
      Duration connectTimeout,
      Duration timeout,
      Duration ttl,
      Duration failureTtl,
      long maxBytes,
      InstantSource clock,
      boolean loads,
      String clientPeer) {
    this.loads = loads;
    this.clientPeer = clientPeer;
    this.timeout = timeout;
    this.ttl = ttl;
    this.failureTtl = failureTtl;
    this.maxBytes = maxBytes;
    this.clock = clock;
    Timeout connect =
        Timeout.ofMilliseconds(Math.min(connectTimeout.toMillis(), timeout.toMillis()));
    Timeout read = Timeout.ofMilliseconds(timeout.toMillis());
    this.client =
        HttpAsyncClients.custom()
            .setConnectionManager(
                PoolingAsyncClientConnectionManagerBuilder.create()
                    // TLS set up on the first https provider, not for every plan (LazyAsyncTls)
                    .setTlsStrategy(new LazyAsyncTls(DefaultClientTlsStrategy::createDefault))
                    .setDefaultConnectionConfig(
                        ConnectionConfig.custom()
                            .setConnectTimeout(connect)
                            .setSocketTimeout(read)
                            .build())
                    .setMaxConnTotal(512)
                    .setMaxConnPerRoute(4)
                    .build())
            .setIOReactorConfig(
                IOReactorConfig.custom().setIoThreadCount(2).setSoTimeout(read).build())
            .setDefaultRequestConfig(
                RequestConfig.custom().setResponseTimeout(read).setRedirectsEnabled(false).build())
            .disableAutomaticRetries()
            // providers answer JSON and ads as they are: no Accept-Encoding, so the byte limit
            // counts what arrives, and no look-up of a Brotli codec in the jar on every plan
            .disableContentCompression()
            .disableCookieManagement()
            .disableAuthCaching()
            .setUserAgent("braid-broker")
            .build();
    client.start();
  }

  /** The answers for every endpoint, from the cache where fresh, else queried concurrently. */
  @Override
  public Map<URI, ProviderAnswer> fetch(Collection<URI> endpoints) {
    Map<URI, ProviderAnswer> out = new LinkedHashMap<>();
    Map<URI, CompletableFuture<ProviderAnswer>> pending = new LinkedHashMap<>();
    List<CompletableFuture<Body>> inflight = Collections.synchronizedList(new ArrayList<>());
    Map<URI, CompletableFuture<ProviderAnswer>> adsOnly = new ConcurrentHashMap<>();
    Instant now = clock.instant();
    long t0 = System.nanoTime();
    for (URI e : new LinkedHashSet<>(endpoints)) {
      ProviderAnswer c = cache.get(e);
      if (c != null && now.isBefore(c.fetched().plus(c.ok() ? ttl : failureTtl))) {
        out.put(e, c);
        continue;
      }
      out.put(e, null);
      pending.put(e, query(e, t0, inflight, adsOnly));
    }
    long deadline = t0 + timeout.toNanos();
    for (Map.Entry<URI, CompletableFuture<ProviderAnswer>> p : pending.entrySet()) {
      URI e = p.getKey();
      ProviderAnswer a;
      try {
        a = p.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException ex) {
        // The ads may have arrived with only the probe values outstanding: keep the ads.
        CompletableFuture<ProviderAnswer> ads = adsOnly.get(e);
        ProviderAnswer got =
            ads != null && ads.isDone() && !ads.isCompletedExceptionally()
                ? ads.getNow(null)
                : null;
        a = got != null ? got : failure(e, "no answer within " + timeout.toMillis() + " ms", t0);
      } catch (ExecutionException ex) {
        a = failure(e, reason(ex.getCause()), t0);
      } catch (CancellationException ex) {
        a = failure(e, "cancelled", t0);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        a = failure(e, "interrupted", t0);
      }
      out.put(e, a);
      cache.put(e, a);
      if (!a.ok()) {
        LOG.debug("provider {}: {}", e, a.error());
      }
    }
    // Whatever is still running (a silent provider, a slow series query) is abandoned now.
    synchronized (inflight) {
      inflight.forEach(f -> f.cancel(true));
    }
    return out;
  }

  /**
   * One provider: its ads, then (best effort, within the same deadline) its latest probe values.
   */
  private CompletableFuture<ProviderAnswer> query(
      URI e,
      long t0,
      List<CompletableFuture<Body>> inflight,
      Map<URI, CompletableFuture<ProviderAnswer>> adsOnly) {
    CompletableFuture<ProviderAnswer> ads = get(e, inflight).thenApply(b -> answer(e, b, t0));
    adsOnly.put(e, ads);
    if (!loads || !e.getRawPath().endsWith(ProviderApi.ADS)) {
      return ads;
    }
    return ads.thenCompose(a -> a.ok() ? loads(a, inflight) : CompletableFuture.completedFuture(a));
  }

  /** The value of a series' newest point, or null if it has none. */
  private static Double lastValue(SeriesJson.Answer a) {
    return a.points().isEmpty() ? null : a.points().get(a.points().size() - 1).value();
  }

  private CompletableFuture<ProviderAnswer> loads(
      ProviderAnswer a, List<CompletableFuture<Body>> inflight) {
    URI base = a.endpoint();
    return get(base.resolve(ProviderApi.SERIES), inflight)
        .thenCompose(
            b -> {
              List<String> names;
              try {
                names = b.status == 200 ? SeriesJson.readNames(b.bytes) : List.of();
              } catch (IOException ex) {
                names = List.of();
              }
              Map<String, String> wanted = new LinkedHashMap<>();
              for (String n : names) {
                if (n.matches("disk/[A-Za-z0-9_.-]+/util_percent")
                    && !wanted.containsKey("DiskLoad")) {
                  wanted.put("DiskLoad", n);
                }
                if (clientPeer != null && n.equals("network/" + clientPeer + "/bandwidth")) {
                  wanted.put("NetworkBandwidth", n);
                }
              }
              Map<String, Double> values = new ConcurrentHashMap<>();
              List<CompletableFuture<Void>> parts = new ArrayList<>();
              wanted.forEach(
                  (attr, name) ->
                      parts.add(
                          get(base.resolve(ProviderApi.SERIES_PREFIX + name), inflight)
                              .handle(
                                  (sb, ex) -> {
                                    try {
                                      Double v =
                                          ex == null && sb.status == 200
                                              ? lastValue(SeriesJson.read(sb.bytes))
                                              : null;
                                      if (v != null) {
                                        values.put(attr, v);
                                      }
                                    } catch (IOException ignored) {
                                      // a bad series leaves the load unknown; the ads stand
                                    }
                                    return null;
                                  })));
              return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                  .thenApply(v -> a.withLoads(values));
            })
        .exceptionally(ex -> a);
  }

  /** An async GET with the size limit; cancelling the returned future cancels the request. */
  private CompletableFuture<Body> get(URI u, List<CompletableFuture<Body>> inflight) {
    CompletableFuture<Body> cf = new CompletableFuture<>();
    inflight.add(cf);
    open.add(cf);
    cf.whenComplete((b, ex) -> open.remove(cf));
    if (closed.get()) {
      cf.completeExceptionally(new IOException("discovery closed"));
      return cf;
    }
    try {
      Future<Body> f =
          client.execute(
              AsyncRequestBuilder.get(u).addHeader("Accept", "application/json").build(),
              new LimitedConsumer(maxBytes),
              new FutureCallback<Body>() {
                @Override
                public void completed(Body b) {
                  cf.complete(b);
                }

                @Override
                public void failed(Exception ex) {
                  cf.completeExceptionally(ex);
                }

                @Override
                public void cancelled() {
                  cf.cancel(false);
                }
              });
      cf.whenComplete(
          (b, ex) -> {
            if (cf.isCancelled()) {
              f.cancel(true);
            }
          });
    } catch (RuntimeException ex) {
      cf.completeExceptionally(ex);
    }
    return cf;
  }

  private ProviderAnswer answer(URI e, Body b, long t0) {
    if (b.status != 200) {
      return failure(e, "HTTP status " + b.status, t0);
    }
    try {
      List<Map<String, Object>> ads = AdsJson.parse(b.bytes);
      return new ProviderAnswer(e, ads, null, elapsed(t0), clock.instant());
    } catch (IOException ex) {
      return failure(e, ex.getMessage(), t0);
    }
  }

  private ProviderAnswer failure(URI e, String why, long t0) {
    return new ProviderAnswer(e, List.of(), why, elapsed(t0), clock.instant());
  }

  private static Duration elapsed(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  private static String reason(Throwable t) {
    if (t == null) {
      return "failed";
    }
    String m = t.getMessage();
    String kind = t.getClass().getSimpleName();
    return (m == null || m.isBlank() ? kind : kind + ": " + m).replace('\n', ' ');
  }

  @Override
  public void prime(ProviderAnswer a) {
    cache.put(a.endpoint(), a);
  }

  @Override
  public void clear() {
    cache.clear();
  }

  /**
   * Stops the client: its I/O thread is asked to shut down and given {@link #SHUTDOWN_WAIT} to
   * finish by itself before the rest is closed at once. (Closing at once while that thread runs
   * closes its selector under it, and HttpCore logs the ClosedSelectorException at ERROR.)
   */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    client.initiateShutdown();
    try {
      client.awaitShutdown(SHUTDOWN_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close(CloseMode.IMMEDIATE);
    for (CompletableFuture<Body> cf : List.copyOf(open)) {
      cf.completeExceptionally(new IOException("discovery closed"));
    }
  }

  /** Status and body of an answer. */
  record Body(int status, byte[] bytes) {}

  /** Collects the body and fails once it exceeds the limit. */
  static final class LimitedConsumer extends AbstractBinResponseConsumer<Body> {
    private final long max;
    private int status;
    private byte[] buf = new byte[8192];
    private int len;

    LimitedConsumer(long max) {
      this.max = max;
    }

    @Override
    protected void start(HttpResponse response, ContentType contentType) {
      status = response.getCode();
    }

    @Override
    protected int capacityIncrement() {
      return 65_536;
    }

    @Override
    protected void data(ByteBuffer src, boolean endOfStream) throws IOException {
      int n = src.remaining();
      if ((long) len + n > max) {
        throw new IOException("answer larger than " + max + " bytes");
      }
      if (len + n > buf.length) {
        buf =
            Arrays.copyOf(
                buf,
                Math.max(
                    len + n, Math.min((int) Math.min(max, Integer.MAX_VALUE - 8), buf.length * 2)));
      }
      src.get(buf, len, n);
      len += n;
    }

    @Override
    protected Body buildResult() {
      return new Body(status, Arrays.copyOf(buf, len));
    }

    @Override
    public void releaseResources() {}
  }
}
