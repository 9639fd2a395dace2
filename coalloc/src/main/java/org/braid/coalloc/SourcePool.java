package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * open; the GridFTP and FTP sources of a server share their idle logged-in control sessions (and
 * their MODE E data connections), so the next file needs no new login. Each source it returns is
 * closed by its user (which leaves the shared connections open); closing the pool closes them.
 * Thread-safe.
 */
final class SourcePool implements Closeable {
  private final Function<URI, RangeSource> factory;
  private final SourceOptions options;
  private final int connections;
  private final Map<String, CloseableHttpClient> http = new LinkedHashMap<>();
  private final Map<String, Deque<FtpSession>> ftp = new LinkedHashMap<>();
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
    if (c != null) {
      return new HttpRangeSource(uri, options, c);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if ((scheme.equals("gsiftp") || scheme.equals("ftp")) && uri.getHost() != null) {
      Deque<FtpSession> idle;
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("the job's connections are closed");
        }
        idle = ftp.computeIfAbsent(DatasetServer.key(uri, ""), k -> new ArrayDeque<>());
      }
      return new GridFtpRangeSource(uri, options, idle);
    }
    return RangeSource.of(uri, options);
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
    String key = DatasetServer.key(uri, "");
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the job's connections are closed");
      }
      CloseableHttpClient c = http.get(key);
      if (c != null) {
        return c;
      }
    }
    // built outside the lock: the first requests of a job, one per server, make their servers'
    // clients at once rather than one after the other (each some milliseconds on a cold JVM)
    CloseableHttpClient made = HttpRangeSource.client(uri, options, connections);
    CloseableHttpClient kept;
    boolean open;
    synchronized (this) {
      open = !closed;
      kept = open ? http.putIfAbsent(key, made) : null;
    }
    if (open && kept == null) {
      return made;
    }
    try {
      made.close(); // another thread's came first (or the pool closed): no connection was made
    } catch (IOException e) {
      // nothing to release
    }
    if (kept == null) {
      throw new IllegalStateException("the job's connections are closed");
    }
    return kept;
  }

  /** How many servers have shared connections (tests). */
  synchronized int servers() {
    return http.size();
  }

  @Override
  public void close() throws IOException {
    List<CloseableHttpClient> all;
    List<Deque<FtpSession>> sessions;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(http.values());
      http.clear();
      sessions = new ArrayList<>(ftp.values());
      ftp.clear();
    }
    for (Deque<FtpSession> d : sessions) {
      synchronized (d) {
        d.forEach(FtpSession::close);
        d.clear();
      }
    }
    for (CloseableHttpClient c : all) {
      c.close();
    }
  }
}
