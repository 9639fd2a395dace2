package org.braid.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.braid.coalloc.GridFtpRangeSource;
import org.braid.coalloc.RangeSource;
import org.braid.coalloc.RangeSourceContractTest;
import org.braid.coalloc.SourceOptions;
import org.braid.testkit.GlobusGridFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link RangeSource} contract for {@link GridFtpRangeSource}, against a real
 * globus-gridftp-server on 127.0.0.1 (partial retrieves with ERET). Fails under CI=true when the
 * server is missing, else skips.
 */
class GridFtpRangeSourceContractTest extends RangeSourceContractTest {
  @TempDir static Path logs;
  static GlobusGridFtpServer server;

  @BeforeAll
  static void start() throws Exception {
    server = GlobusGridFtpServer.builder(logs).start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected RangeSource create(Path file) throws Exception {
    // the server serves anonymous users as nobody when the tests run as root
    Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    return new GridFtpRangeSource(server.uri(file), SourceOptions.DEFAULT);
  }
}
