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
  private final NginxServer server;

  private Nginx(NginxServer server) {
    this.server = server;
  }

  static Path binary() {
    return NginxServer.binary();
  }

  /** Mirrors serving {@code root}, one per rate (e.g. "4m" bytes/s; "0" unlimited). */
  static Nginx start(Path root, Path prefix, List<String> rates) throws Exception {
    NginxServer.Builder b = NginxServer.builder(prefix);
    rates.forEach(rate -> b.server(root, rate));
    return new Nginx(b.start());
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
