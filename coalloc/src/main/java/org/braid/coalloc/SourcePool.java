package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * Makes the range sources of a dataset job's files so that the files of one server share its
 * connections: the HTTP(S) sources of a server ({@code scheme://host:port}) share one client with
 * one pool of keep-alive connections (WebDAV {@code dav}/{@code davs} URLs too), sized for the
 * job's concurrency, so that the next file's request goes out on a connection the last file left
 * open. Each source it returns is closed by its user (which leaves the shared connections open);
 * closing the pool closes them. Thread-safe.
 */
final class SourcePool implements Closeable {
  private final Function<URI, RangeSource> factory;
  private final SourceOptions options;
  private final int connections;
  private final Map<String, CloseableHttpClient> http = new LinkedHashMap<>();
  private boolean closed;

  /**
   * A pool over the given factory, or over the built-in sources when it is null.
   *
   * @param connections the most connections to one server at once (the job's concurrency times the
   *     connections per source)
   */
  SourcePool(Function<URI, RangeSource> factory, SourceOptions options, int connections) {
    this.factory = factory;
    this.options = options;
    this.connections = Math.max(1, connections);
  }

  /**
   * The source of one file's replica.
   *
   * @throws IllegalArgumentException if the URL's scheme is not supported
   * @throws IllegalStateException if the pool is closed
   */
  RangeSource open(URI uri) {
    if (factory != null) {
      return factory.apply(uri);
    }
    CloseableHttpClient c = httpClient(uri);
    return c == null ? RangeSource.of(uri, options) : new HttpRangeSource(uri, options, c);
  }

  /**
   * The shared client of an HTTP(S) or WebDAV URL's server, or null for another scheme or when the
   * pool makes its sources with a given factory.
   *
   * @throws IllegalStateException if the pool is closed
   */
  CloseableHttpClient httpClient(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (factory != null
        || !(scheme.equals("http")
            || scheme.equals("https")
            || scheme.equals("dav")
            || scheme.equals("davs"))) {
      return null;
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the job's connections are closed");
      }
      return http.computeIfAbsent(
          DatasetServer.key(uri, ""), k -> HttpRangeSource.client(uri, options, connections));
    }
  }

  /** How many servers have shared connections (tests). */
  synchronized int servers() {
    return http.size();
  }

  @Override
  public void close() throws IOException {
    List<CloseableHttpClient> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(http.values());
      http.clear();
    }
    for (CloseableHttpClient c : all) {
      c.close();
    }
  }
}
