package org.braid.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.braid.testkit.RealComponent;
import org.braid.testkit.SharedDirs;

/** A self-signed server certificate made with the openssl command, for TLS servers in tests. */
final class SelfSignedTls {
  private SelfSignedTls() {}

  /**
   * Writes {@code cert.pem} (for an IP address, valid two days) and {@code key.pem} into a new
   * directory {@code dir}; run as root, the key belongs to {@code nobody}, the servers' user.
   *
   * @return the key file
   */
  static Path selfSigned(Path dir, String ip) throws Exception {
    Path openssl = RealComponent.executable("openssl", "openssl");
    Files.createDirectories(dir.getParent());
    Path d = SharedDirs.open(dir.getParent(), dir.getFileName().toString());
    Path cert = d.resolve("cert.pem");
    Path key = d.resolve("key.pem");
    Process p =
        new ProcessBuilder(
                List.of(
                    openssl.toString(),
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-keyout",
                    key.toString(),
                    "-out",
                    cert.toString(),
                    "-days",
                    "2",
                    "-subj",
                    "/CN=" + ip,
                    "-addext",
                    "subjectAltName=IP:" + ip))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("openssl req failed: " + out);
    }
    Files.setPosixFilePermissions(cert, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    if ("root".equals(System.getProperty("user.name"))) {
      UserPrincipal nobody =
          key.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(key, nobody);
    }
    return key;
  }
}
