package org.braid.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.braid.coalloc.RangeSource;
import org.braid.coalloc.RangeSourceContractTest;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.xrootd.XrootdRangeSource;
import org.braid.testkit.XrootdServer;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link RangeSource} contract for {@link XrootdRangeSource}, against a real xrootd on
 * 127.0.0.1 exporting the test's directory. Fails under CI=true when xrootd is missing, else skips.
 */
class XrootdRangeSourceContractTest extends RangeSourceContractTest {
  @TempDir Path work;
  private XrootdServer server;

  @Override
  protected RangeSource create(Path file) throws Exception {
    // xrootd runs as nobody when the tests run as root
    Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    server = XrootdServer.builder(work, file.getParent()).start();
    return RangeSource.of(server.uri(file), SourceOptions.DEFAULT);
  }

  @Override
  protected void cleanup() {
    if (server != null) {
      server.close();
    }
  }
}
