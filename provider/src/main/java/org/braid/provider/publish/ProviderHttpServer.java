package org.braid.provider.publish;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's read-only HTTP server (Apache HttpCore 5, classic I/O): {@code GET /v1/ads},
 * {@code /v1/stats}, {@code /v1/series}, {@code /v1/series/NAME}, {@code /metrics}, {@code
 * /healthz}. GET and HEAD only (405 otherwise); unknown paths 404; requests beyond {@link
 * HttpLimits} get 414 or 431; malformed requests 400. Binds to 127.0.0.1 unless told otherwise.
 *
 * <p>Thread-safe. Every request reads the current {@link Snapshot}; nothing is computed per request
 * except rendering.
 */
public final class ProviderHttpServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProviderHttpServer.class);

  /** Header the connection sets on a request whose head exceeded the hard limits. */
  static final String OVERSIZE = "X-Braid-Oversize";

  /** Header the connection sets on the request of a connection over the connection limit. */
  static final String OVERLOAD = "X-Braid-Overload";

  /** Hard limit of one line of the request head: beyond it the head is not read further. */
  private static final int HARD_LINE_LIMIT = 65_536;

  private final HttpServer server;
  private final Connections connections;

  private ProviderHttpServer(HttpServer server, Connections connections) {
    this.server = server;
    this.connections = connections;
  }

  /**
   * Starts a server.
   *
   * @param bind the address to listen on (127.0.0.1 for loopback only)
   * @param port the port, 0 for any free one
   * @param snapshot supplies the current snapshot
   * @param series the probe series for /v1/series
   * @param limits request bounds
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the port is outside 0-65535
   * @throws IOException if the port cannot be bound
   */
  public static ProviderHttpServer start(
      InetAddress bind,
      int port,
      Supplier<Snapshot> snapshot,
      SeriesSource series,
      HttpLimits limits)
      throws IOException {
    return start(bind, port, snapshot, series, limits, new ProviderMetrics(snapshot));
  }

  /**
   * Starts a server that counts its requests in {@code metrics} and serves them at {@code
   * /metrics}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the port is outside 0-65535
   * @throws java.net.BindException naming the address and port when they cannot be bound
   * @throws IOException if the server cannot start
   */
  public static ProviderHttpServer start(
      InetAddress bind,
      int port,
      Supplier<Snapshot> snapshot,
      SeriesSource series,
      HttpLimits limits,
      ProviderMetrics metrics)
      throws IOException {
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(limits, "limits");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0-65535: " + port);
    }
    Http1Config h1 =
        Http1Config.custom()
            .setMaxLineLength(HARD_LINE_LIMIT)
            .setMaxHeaderCount(Math.max(limits.maxHeaderCount() * 2, 100))
            .setMaxEmptyLineCount(10)
            .build();
    RequestRouter router = new RequestRouter(snapshot, series, limits, metrics);
    Connections connections = new Connections(limits, h1, metrics);
    HttpServer s =
        ServerBootstrap.bootstrap()
            .setLocalAddress(bind)
            .setListenerPort(port)
            .setHttp1Config(h1)
            .setSocketConfig(
                SocketConfig.custom()
                    .setSoTimeout(
                        (int) Math.max(1, limits.requestTimeout().toMillis()),
                        TimeUnit.MILLISECONDS)
                    .setBacklogSize(256)
                    .build())
            .setConnectionFactory(connections::accept)
            .setExceptionListener(
                new org.apache.hc.core5.http.ExceptionListener() {
                  @Override
                  public void onError(Exception ex) {
                    LOG.debug("http: {}", ex.toString());
                  }

                  @Override
                  public void onError(org.apache.hc.core5.http.HttpConnection c, Exception ex) {
                    LOG.debug("http: {}", ex.toString());
                  }
                })
            // A filter answers every request itself, so any Host header is accepted (the default
            // handler registry answers 421 to hosts other than the canonical name).
            .addFilterFirst(
                "braid-router",
                (request, trigger, context, chain) -> {
                  ClassicHttpResponse response = new BasicClassicHttpResponse(HttpStatus.SC_OK);
                  router.handle(request, response, context);
                  trigger.submitResponse(response);
                })
            .register("*", router)
            .create();
    try {
      s.start();
    } catch (BindException e) {
      connections.close();
      throw new BindException(
          "http: cannot listen on " + hostPort(bind, port) + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      connections.close();
      throw e;
    }
    LOG.info("http: listening on {}", hostPort(bind, s.getLocalPort()));
    return new ProviderHttpServer(s, connections);
  }

  private static String hostPort(InetAddress bind, int port) {
    String h = bind.getHostAddress();
    return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
  }

  /** The port the server listens on. */
  public int port() {
    return server.getLocalPort();
  }

  /** Stops accepting, lets running requests finish for up to 1 second, then closes. */
  @Override
  public void close() {
    server.initiateShutdown();
    try {
      server.awaitTermination(TimeValue.ofSeconds(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.close(CloseMode.IMMEDIATE);
    connections.close();
  }
}
