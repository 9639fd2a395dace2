package org.braid.system;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real globus-gridftp-server on 127.0.0.1 in anonymous mode, with its transfer log. Fails when
 * the server is missing and CI=true, otherwise skips.
 */
final class GridFtpServer implements AutoCloseable {
  private final Process process;
  final int port;
  final Path transferLog;

  private GridFtpServer(Process process, int port, Path transferLog) {
    this.process = process;
    this.port = port;
    this.transferLog = transferLog;
  }

  static Path binary() {
    Path p = Path.of("/usr/sbin/globus-gridftp-server");
    if (Files.isExecutable(p)) {
      return p;
    }
    String msg =
        "globus-gridftp-server is not installed (Debian: apt-get install"
            + " globus-gridftp-server-progs, or run .ci/install)";
    if ("true".equals(System.getenv("CI"))) {
      fail(msg);
    }
    Assumptions.assumeTrue(false, msg);
    return null;
  }

  /** Starts a server; {@code extra} are more command-line options. */
  static GridFtpServer start(Path logDir, String... extra) throws Exception {
    Path bin = binary();
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path transfer = logDir.resolve("transfer-" + port + ".log");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                bin.toString(),
                "-s",
                "-aa",
                "-p",
                Integer.toString(port),
                "-control-interface",
                "127.0.0.1",
                "-data-interface",
                "127.0.0.1",
                "-home-dir",
                "/",
                "-d",
                "error,warn,info",
                "-l",
                logDir.resolve("server-" + port + ".log").toString(),
                "-Z",
                transfer.toString(),
                "-disable-usage-stats"));
    if ("root".equals(System.getProperty("user.name"))) {
      cmd.add("-anonymous-user");
      cmd.add("nobody");
    }
    cmd.addAll(List.of(extra));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve("stdout-" + port + ".log").toFile())
            .start();
    GridFtpServer g = new GridFtpServer(p, port, transfer);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!accepts(port)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        g.close();
        fail(
            "globus-gridftp-server did not start: "
                + Files.readString(logDir.resolve("stdout-" + port + ".log")));
      }
      Thread.sleep(20);
    }
    return g;
  }

  URI uri(Path file) {
    return URI.create("gsiftp://127.0.0.1:" + port + file.toAbsolutePath());
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
