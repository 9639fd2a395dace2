package org.braid.coalloc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.util.function.Supplier;
import org.apache.hc.client5.http.socket.LayeredConnectionSocketFactory;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * A TLS socket factory built on the first https connection. Building an {@code SSLContext} (the
 * default trust store included) costs about 0.1 s, which HttpClient would otherwise pay for every
 * source when its connection manager is created, also for plain-http downloads.
 */
final class LazyTls implements LayeredConnectionSocketFactory {
  private final Supplier<LayeredConnectionSocketFactory> factory;
  private volatile LayeredConnectionSocketFactory tls;

  LazyTls(Supplier<LayeredConnectionSocketFactory> factory) {
    this.factory = factory;
  }

  /** Whether the TLS factory was built (for tests). */
  boolean built() {
    return tls != null;
  }

  private LayeredConnectionSocketFactory tls() {
    LayeredConnectionSocketFactory t = tls;
    if (t == null) {
      synchronized (this) {
        t = tls;
        if (t == null) {
          t = factory.get();
          tls = t;
        }
      }
    }
    return t;
  }

  @Override
  public Socket createSocket(HttpContext context) throws IOException {
    return tls().createSocket(context);
  }

  @Override
  public Socket createSocket(Proxy proxy, HttpContext context) throws IOException {
    return tls().createSocket(proxy, context);
  }

  @Override
  public Socket connectSocket(
      TimeValue connectTimeout,
      Socket socket,
      HttpHost host,
      InetSocketAddress remoteAddress,
      InetSocketAddress localAddress,
      HttpContext context)
      throws IOException {
    return tls().connectSocket(connectTimeout, socket, host, remoteAddress, localAddress, context);
  }

  @Override
  public Socket connectSocket(
      Socket socket,
      HttpHost host,
      InetSocketAddress remoteAddress,
      InetSocketAddress localAddress,
      Timeout connectTimeout,
      Object attachment,
      HttpContext context)
      throws IOException {
    return tls()
        .connectSocket(
            socket, host, remoteAddress, localAddress, connectTimeout, attachment, context);
  }

  @Override
  public Socket createLayeredSocket(Socket socket, String target, int port, HttpContext context)
      throws IOException {
    return tls().createLayeredSocket(socket, target, port, context);
  }

  @Override
  public Socket createLayeredSocket(
      Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    return tls().createLayeredSocket(socket, target, port, attachment, context);
  }
}
