package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.ssl.SSLConnectionSocketFactory;
import org.apache.hc.core5.http.protocol.BasicHttpContext;
import org.junit.jupiter.api.Test;

class LazyTlsTest {
  @Test
  void tlsIsBuiltOnFirstUseOnly_andOnce() throws Exception {
    AtomicInteger builds = new AtomicInteger();
    LazyTls t =
        new LazyTls(
            () -> {
              builds.incrementAndGet();
              return SSLConnectionSocketFactory.getSocketFactory();
            });
    assertFalse(t.built());
    assertEquals(0, builds.get());
    t.createSocket(new BasicHttpContext()).close();
    t.createSocket(new BasicHttpContext()).close();
    assertTrue(t.built());
    assertEquals(1, builds.get());
  }
}
