package org.braid.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The one rule for a test that needs a real component (a server, a client program, a Python
 * oracle): when the component is missing, the test FAILS under {@code CI=true} and is skipped
 * (aborted) elsewhere, in both cases with a message saying how to install it.
 *
 * <pre>{@code
 * Path nginx = RealComponent.executable("nginx", "nginx-light");
 * if (reason != null) RealComponent.unavailable(reason, "pip install -r .ci/requirements.txt");
 * }</pre>
 */
public final class RealComponent {

  /** Where executables are looked for after {@code PATH}: daemons live in the sbin directories. */
  static final List<Path> SYSTEM_DIRS =
      List.of(
          Path.of("/usr/local/sbin"),
          Path.of("/usr/local/bin"),
          Path.of("/usr/sbin"),
          Path.of("/usr/bin"),
          Path.of("/sbin"),
          Path.of("/bin"));

  private RealComponent() {}

  /** Whether this run is CI ({@code CI=true} in the environment): missing components fail. */
  public static boolean ci() {
    return "true".equals(System.getenv("CI"));
  }

  /**
   * The executable {@code name}, found on {@code PATH} or in the system's sbin and bin directories;
   * when missing, ends the calling test as {@link #unavailable(String, String)} does, naming the
   * Debian package that provides it.
   *
   * @param name the program's file name, e.g. {@code "nginx"}
   * @param debianPackage the Debian package that installs it, e.g. {@code "nginx-light"}
   * @return the executable's path
   */
  public static Path executable(String name, String debianPackage) {
    Objects.requireNonNull(debianPackage, "debianPackage");
    return find(name, searchPath())
        .orElseGet(
            () ->
                unavailable(
                    name + " is not installed",
                    "apt-get install " + debianPackage + " (or run .ci/install as root)"));
  }

  /**
   * Ends the calling test because a component it needs is missing: fails it under {@code CI=true},
   * aborts (skips) it elsewhere. Never returns normally; the type parameter lets a caller write
   * {@code return RealComponent.unavailable(...)} where a value is expected.
   *
   * @param what what is missing, e.g. "nginx is not installed"
   * @param install how to install it, e.g. "apt-get install nginx-light"
   */
  public static <T> T unavailable(String what, String install) {
    return unavailable(what, install, ci());
  }

  static <T> T unavailable(String what, String install, boolean ci) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(install, "install");
    String message = what + "; install it with: " + install;
    if (ci) {
      return Assertions.fail(message + " (CI=true: a missing component fails the test)");
    }
    Assumptions.abort(message);
    throw new AssertionError("unreachable: Assumptions.abort returned");
  }

  /** The first executable file {@code name} in {@code dirs}. */
  static Optional<Path> find(String name, List<Path> dirs) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("executable name must be a plain file name: " + name);
    }
    for (Path dir : dirs) {
      Path p = dir.resolve(name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** {@code PATH}'s directories, then {@link #SYSTEM_DIRS}. */
  static List<Path> searchPath() {
    List<Path> dirs = new ArrayList<>();
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty()) {
        dirs.add(Path.of(d));
      }
    }
    dirs.addAll(SYSTEM_DIRS);
    return dirs;
  }
}
