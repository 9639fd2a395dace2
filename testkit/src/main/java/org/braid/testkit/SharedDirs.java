package org.braid.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Directories a server's unprivileged user can use. Run as root, globus-gridftp-server serves
 * anonymous clients as {@code nobody}, while JUnit's temporary directories are private ({@code
 * rwx------}).
 */
public final class SharedDirs {

  private SharedDirs() {}

  /**
   * Makes {@code parent} traversable and readable by everyone and creates {@code parent/name}
   * writable by everyone.
   *
   * @return the new directory
   */
  public static Path open(Path parent, String name) throws IOException {
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(parent);
    perms.addAll(PosixFilePermissions.fromString("r-xr-xr-x"));
    Files.setPosixFilePermissions(parent, perms);
    Path d = Files.createDirectories(parent.resolve(name));
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxrwxrwx"));
    return d;
  }
}
