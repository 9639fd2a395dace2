package org.braid.broker;

import java.net.SocketAddress;
import java.util.function.Supplier;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;

/**
 * The discovery client's TLS strategy, built on its first https connection. The async client's
 * connection manager otherwise builds the default one when it is made: an {@code SSLContext} with
 * the system trust store, a few hundred milliseconds of CPU in a cold JVM (about 220 classes, the
 * CA certificates parsed), paid by every {@code braid get -d} that plans with the broker even when
 * every information provider is plain http, beside the job's first requests.
 */
final class LazyAsyncTls implements TlsStrategy {
  private final Supplier<TlsStrategy> factory;
  private volatile TlsStrategy tls;

  LazyAsyncTls(Supplier<TlsStrategy> factory) {
    this.factory = factory;
  }

  /** Whether the TLS strategy was built (for tests). */
  boolean built() {
    return tls != null;
  }

  private TlsStrategy tls() {
    TlsStrategy t = tls;
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

  @Deprecated
  @Override
  public boolean upgrade(
      TransportSecurityLayer sessionLayer,
      HttpHost host,
      SocketAddress localAddress,
      SocketAddress remoteAddress,
      Object attachment,
      Timeout handshakeTimeout) {
    return tls()
        .upgrade(sessionLayer, host, localAddress, remoteAddress, attachment, handshakeTimeout);
  }

  @Override
  public void upgrade(
      TransportSecurityLayer sessionLayer,
      NamedEndpoint endpoint,
      Object attachment,
      Timeout handshakeTimeout,
      FutureCallback<TransportSecurityLayer> callback) {
    tls().upgrade(sessionLayer, endpoint, attachment, handshakeTimeout, callback);
  }
}
