package org.braid.coalloc;

import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.core5.http.config.Http1Config;

/**
 * Bounds on what an HTTP server may send before its body: the length of the status line and of each
 * header line, and the number of headers. HttpCore allows any by default, so a hostile server could
 * make a client buffer headers without end.
 */
final class HttpLimits {
  /** The longest status or header line accepted, in bytes. */
  static final int MAX_LINE = 16 * 1024;

  /** The most header lines accepted in one answer. */
  static final int MAX_HEADERS = 256;

  private HttpLimits() {}

  /** A connection factory that enforces the limits. */
  static ManagedHttpClientConnectionFactory connectionFactory() {
    return ManagedHttpClientConnectionFactory.builder()
        .http1Config(
            Http1Config.custom().setMaxLineLength(MAX_LINE).setMaxHeaderCount(MAX_HEADERS).build())
        .build();
  }
}
