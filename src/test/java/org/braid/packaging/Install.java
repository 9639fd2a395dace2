package org.braid.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.braid.provider.publish.Figure3Schema;
import org.braid.testkit.RealComponent;

/**
 * The built packages (cli/target) and what it takes to install them read-only: real tools (tar,
 * dpkg-deb, systemd-analyze, unshare) found through {@link RealComponent} (missing: the test fails
 * under CI=true and is skipped elsewhere), and a read-only install directory.
 */
final class Install {

  private Install() {}

  /**
   * Braid's LDAP schema files as the packages ship them, each with its bytes as the provider's jar
   * holds them (the schema that {@code DirectorySystemTest} loads into a real slapd).
   */
  static Map<String, byte[]> ldapSchema() throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    for (String resource : List.of(Figure3Schema.RESOURCE, Figure3Schema.LDIF_RESOURCE)) {
      try (InputStream in = Figure3Schema.class.getResourceAsStream(resource)) {
        if (in == null) {
          fail("no " + resource + " on the class path");
        }
        files.put(resource.substring(resource.lastIndexOf('/') + 1), in.readAllBytes());
      }
    }
    return files;
  }

  /** cli/target, where the cli module's package phase leaves the tarball and the .deb. */
  static Path distDir() {
    String d = System.getProperty("braid.dist.dir");
    return d != null ? Path.of(d) : Path.of("../../cli/target");
  }

  /** The one file in cli/target whose name matches {@code glob}. */
  static Path built(String glob) throws IOException {
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(distDir())) {
      try (DirectoryStream<Path> s = Files.newDirectoryStream(distDir(), glob)) {
        s.forEach(found::add);
      }
    }
    if (found.size() != 1) {
      fail(
          "expected one "
              + glob
              + " in "
              + distDir().toAbsolutePath()
              + ", found "
              + found
              + " (build it: ./mvnw -pl cli -am package)");
    }
    return found.get(0);
  }

  /** The path of {@code tool}; fails under CI=true when missing, else skips (RealComponent). */
  static Path tool(String tool, String debianPackage) {
    return RealComponent.executable(tool, debianPackage);
  }

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Runs a command to its end (at most 2 minutes) and returns its output; fails on exit != 0. */
  static String run(List<String> command) throws IOException, InterruptedException {
    return run(new ProcessBuilder(command));
  }

  /** {@link #run(List)} with a prepared process builder. */
  static String run(ProcessBuilder pb) throws IOException, InterruptedException {
    List<String> command = pb.command();
    Process p = pb.redirectErrorStream(true).start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      fail("timed out: " + command);
    }
    String text = new String(out, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), command + " failed:\n" + text);
    return text;
  }

  /** Removes every write permission under {@code dir} (chmod -R a-w). */
  static void chmodReadOnly(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        if (!Files.isSymbolicLink(p)) {
          Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
          perms.remove(PosixFilePermission.OWNER_WRITE);
          perms.remove(PosixFilePermission.GROUP_WRITE);
          perms.remove(PosixFilePermission.OTHERS_WRITE);
          Files.setPosixFilePermissions(p, perms);
        }
      }
    }
  }

  /** Gives the owner write permission back, so that JUnit can delete the temporary directory. */
  static void chmodWritable(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        if (!Files.isSymbolicLink(p)) {
          Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
          perms.add(PosixFilePermission.OWNER_WRITE);
          Files.setPosixFilePermissions(p, perms);
        }
      }
    }
  }

  /**
   * {@code command} run with {@code dir} read-only. Without root, {@link #chmodReadOnly} already
   * does it. Root ignores permissions, so there the command runs in a mount namespace of its own
   * (unshare -m, private propagation: nothing leaks to the host's mounts, and the mount vanishes
   * with the process) in which {@code dir} is bind-mounted read-only over itself.
   */
  static List<String> readOnly(Path dir, List<String> command) {
    if (!isRoot()) {
      return command;
    }
    List<String> c = new ArrayList<>();
    c.add(tool("unshare", "util-linux").toString());
    c.add("--mount");
    c.add("--propagation");
    c.add("private");
    c.add("/bin/sh");
    c.add("-c");
    c.add("mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\"");
    c.add("sh");
    c.add(dir.toString());
    c.addAll(command);
    return c;
  }

  /** Path, size and modification time of every file under {@code dir}, to compare before/after. */
  static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        String attrs =
            Files.isSymbolicLink(p)
                ? "-> " + Files.readSymbolicLink(p)
                : Files.size(p) + " " + Files.getLastModifiedTime(p);
        m.put(dir.relativize(p).toString().replace(File.separatorChar, '/'), attrs);
      }
    }
    return m;
  }
}
