package org.braid.coalloc;

import java.io.IOException;
import java.net.Socket;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * A TLS strategy built on the first https connection. Building an {@code SSLContext} (the default
 * trust store included) costs about 0.1 s, which HttpClient would otherwise pay for every source
 * when its connection manager is created, also for plain-http downloads.
 */
final class LazyTls implements TlsSocketStrategy {
  private final Supplier<TlsSocketStrategy> factory;
  private volatile TlsSocketStrategy tls;

  LazyTls(Supplier<TlsSocketStrategy> factory) {
    this.factory = factory;
  }

  /** Whether the TLS strategy was built (for tests). */
  boolean built() {
    return tls != null;
  }

  private TlsSocketStrategy tls() {
    TlsSocketStrategy t = tls;
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
  public SSLSocket upgrade(
      Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    return tls().upgrade(socket, target, port, attachment, context);
  }
}
