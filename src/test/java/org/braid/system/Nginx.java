package org.braid.system;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.braid.testkit.NginxServer;

/**
 * The old name of {@link NginxServer}, kept only so that system tests written against it still
 * compile while branches merge; new tests use {@link NginxServer} (braid-testkit). Delete once no
 * test uses it.
 */
final class Nginx implements AutoCloseable {

  /** The provider's log format for nginx, as docs/provider.md tells admins to include it. */
  private static final Path LOG_FORMAT =
      Path.of("..", "..", "docs", "provider-nginx.conf").toAbsolutePath().normalize();

  private final NginxServer server;

  private Nginx(NginxServer server) {
    this.server = server;
  }

  static Path binary() {
    return NginxServer.binary();
  }

  /** Mirrors serving {@code root}, one per rate (e.g. "4m" bytes/s; "0" unlimited). */
  static Nginx start(Path root, Path prefix, List<String> rates) throws Exception {
    return start(root, prefix, rates, /* braidLogs= */ false);
  }

  /**
   * Mirrors as {@link #start(Path, Path, List)} starts them; with {@code braidLogs} each mirror
   * also writes its own access log in the provider's braid format ({@link #braidLog}).
   */
  static Nginx start(Path root, Path prefix, List<String> rates, boolean braidLogs)
      throws Exception {
    NginxServer.Builder b = NginxServer.builder(prefix);
    if (braidLogs) {
      b.http("include " + LOG_FORMAT + ";");
    }
    for (int i = 0; i < rates.size(); i++) {
      b.server(root, rates.get(i));
      if (braidLogs) {
        b.serverLog(braidLog(prefix, i), "braid");
      }
    }
    return new Nginx(b.start());
  }

  private static Path braidLog(Path prefix, int mirror) {
    return prefix.toAbsolutePath().resolve("braid-" + mirror + ".log");
  }

  /** The port of a mirror. */
  int port(int mirror) {
    return server.port(mirror);
  }

  /** A mirror's access log in the braid format (when started with braid logs). */
  Path braidLog(int mirror) {
    return braidLog(server.prefix(), mirror);
  }

  URI uri(int mirror, String name) {
    return server.uri(mirror, name);
  }

  Path prefix() {
    return server.prefix();
  }

  @Override
  public void close() {
    server.close();
  }
}
