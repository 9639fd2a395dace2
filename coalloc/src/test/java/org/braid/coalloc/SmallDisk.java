package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A size-limited file system for disk-full tests: a tmpfs of a few MiB mounted on a directory
 * (needs root, as CI runs). Where it cannot be mounted the test fails under {@code CI=true} and is
 * skipped elsewhere with a message saying why.
 */
final class SmallDisk implements AutoCloseable {
  final Path dir;

  private SmallDisk(Path dir) {
    this.dir = dir;
  }

  /** Mounts a tmpfs of {@code mib} MiB on a new directory under {@code parent}. */
  static SmallDisk mount(Path parent, int mib) throws IOException {
    Path d = Files.createDirectories(parent.resolve("small-disk"));
    String why = run("mount", "-t", "tmpfs", "-o", "size=" + mib + "m", "tmpfs", d.toString());
    if (why != null) {
      String msg =
          "cannot mount a " + mib + " MiB tmpfs for the disk-full test (" + why + "); run as root";
      if ("true".equals(System.getenv("CI"))) {
        fail(msg);
      }
      assumeTrue(false, msg);
    }
    return new SmallDisk(d);
  }

  /** Writes zeros to a new file until the file system is full; returns the bytes written. */
  long fill(String name) throws IOException {
    byte[] b = new byte[4096];
    long n = 0;
    try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
      while (true) {
        out.write(b);
        n += b.length;
      }
    } catch (IOException full) {
      return n;
    }
  }

  @Override
  public void close() throws IOException {
    String why = run("umount", "-l", dir.toString());
    if (why != null) {
      throw new IOException("cannot unmount " + dir + ": " + why);
    }
  }

  /** Runs a command; null if it exited 0, else its output. */
  private static String run(String... cmd) throws IOException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return String.join(" ", cmd) + " did not end";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return "interrupted";
    }
    String out = new String(p.getInputStream().readAllBytes()).trim();
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
  }
}
