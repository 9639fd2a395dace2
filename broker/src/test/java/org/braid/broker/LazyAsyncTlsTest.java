package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/** The discovery client's TLS, built on the first https connection only. */
class LazyAsyncTlsTest {
  @Test
  void builtOnFirstUpgradeOnly_andOnce_thenUsed() {
    AtomicInteger builds = new AtomicInteger();
    AtomicReference<NamedEndpoint> seen = new AtomicReference<>();
    TlsStrategy real =
        new TlsStrategy() {
          @Deprecated
          @Override
          public boolean upgrade(
              TransportSecurityLayer l,
              HttpHost h,
              SocketAddress a,
              SocketAddress b,
              Object o,
              Timeout t) {
            return false;
          }

          @Override
          public void upgrade(
              TransportSecurityLayer l,
              NamedEndpoint e,
              Object o,
              Timeout t,
              FutureCallback<TransportSecurityLayer> c) {
            seen.set(e);
          }
        };
    LazyAsyncTls lazy =
        new LazyAsyncTls(
            () -> {
              builds.incrementAndGet();
              return real;
            });
    assertFalse(lazy.built());
    assertEquals(0, builds.get());
    NamedEndpoint host = new HttpHost("https", "provider.example", 443);
    for (int i = 0; i < 2; i++) {
      lazy.upgrade(null, host, null, Timeout.ofSeconds(1), null);
    }
    assertTrue(lazy.built());
    assertEquals(1, builds.get());
    assertSame(host, seen.get());
  }
}
