package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.junit.jupiter.api.Test;

class LazyTlsTest {
  @Test
  void tlsIsBuiltOnFirstUseOnly_andOnce() throws Exception {
    AtomicInteger builds = new AtomicInteger();
    LazyTls t =
        new LazyTls(
            () -> {
              builds.incrementAndGet();
              return DefaultClientTlsStrategy.createDefault();
            });
    assertFalse(t.built());
    assertEquals(0, builds.get());
    for (int i = 0; i < 2; i++) {
      try (Socket unconnected = new Socket()) {
        // The built strategy is used (and refuses a socket that is not connected).
        assertThrows(
            SocketException.class,
            () -> t.upgrade(unconnected, "localhost", 443, null, HttpClientContext.create()));
      }
    }
    assertTrue(t.built());
    assertEquals(1, builds.get());
  }
}
