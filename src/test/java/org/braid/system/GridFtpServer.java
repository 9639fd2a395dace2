package org.braid.system;

import java.net.URI;
import java.nio.file.Path;
import org.braid.testkit.GlobusGridFtpServer;

/**
 * The old name of {@link GlobusGridFtpServer}, kept only so that system tests written against it
 * still compile while branches merge; new tests use {@link GlobusGridFtpServer} (braid-testkit).
 * Delete once no test uses it.
 */
final class GridFtpServer implements AutoCloseable {
  private final GlobusGridFtpServer server;
  final int port;
  final Path transferLog;

  private GridFtpServer(GlobusGridFtpServer server) {
    this.server = server;
    this.port = server.port();
    this.transferLog = server.transferLog();
  }

  static Path binary() {
    return GlobusGridFtpServer.binary();
  }

  /** Starts a server; {@code extra} are more command-line options. */
  static GridFtpServer start(Path logDir, String... extra) throws Exception {
    return new GridFtpServer(GlobusGridFtpServer.builder(logDir).options(extra).start());
  }

  URI uri(Path file) {
    return server.uri(file);
  }

  @Override
  public void close() {
    server.close();
  }
}
