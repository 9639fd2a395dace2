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
 * Real nginx mirrors on 127.0.0.1: one nginx process with one server block per mirror, each
 * rate-limited with {@code limit_rate}, its own prefix directory and config. Fails when nginx is
 * missing and CI=true, otherwise skips.
 */
final class Nginx implements AutoCloseable {
  private final Process process;
  private final List<Integer> ports;
  private final Path prefix;

  private Nginx(Process process, List<Integer> ports, Path prefix) {
    this.process = process;
    this.ports = ports;
    this.prefix = prefix;
  }

  static Path binary() {
    for (String p : List.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx")) {
      if (Files.isExecutable(Path.of(p))) {
        return Path.of(p);
      }
    }
    String msg = "nginx is not installed (Debian: apt-get install nginx-light, or run .ci/install)";
    if ("true".equals(System.getenv("CI"))) {
      fail(msg);
    }
    Assumptions.assumeTrue(false, msg);
    return null;
  }

  /** Starts mirrors serving {@code root}, one per rate (e.g. "4m" bytes/s; "0" unlimited). */
  static Nginx start(Path root, Path prefix, List<String> rates) throws Exception {
    return start(root, prefix, rates, /* braidLogs= */ false);
  }

  /**
   * Starts mirrors as {@link #start(Path, Path, List)} does; with {@code braidLogs} each mirror
   * also writes its own access log in the provider's braid format (docs/provider-nginx.conf,
   * included as it is), {@link #braidLog}.
   */
  static Nginx start(Path root, Path prefix, List<String> rates, boolean braidLogs)
      throws Exception {
    Path bin = binary();
    Files.createDirectories(prefix.resolve("tmp"));
    List<Integer> ports = new ArrayList<>();
    StringBuilder servers = new StringBuilder();
    for (String rate : rates) {
      int port = freePort();
      ports.add(port);
      servers
          .append("  server {\n    listen 127.0.0.1:")
          .append(port)
          .append(";\n")
          .append(
              braidLogs
                  ? "    access_log "
                      + prefix.resolve("access.log")
                      + ";\n    access_log "
                      + prefix.resolve("braid-" + port + ".log")
                      + " braid;\n"
                  : "")
          .append("    root ")
          .append(root.toAbsolutePath())
          .append(";\n")
          .append("    location / { limit_rate ")
          .append(rate)
          .append("; }\n  }\n");
    }
    boolean root0 = "root".equals(System.getProperty("user.name"));
    String conf =
        (root0 ? "user root;\n" : "")
            + "worker_processes 1;\n"
            + "pid "
            + prefix.resolve("nginx.pid")
            + ";\n"
            + "error_log "
            + prefix.resolve("error.log")
            + ";\n"
            + "events { worker_connections 256; }\n"
            + "http {\n"
            + (braidLogs ? "  include " + LOG_FORMAT + ";\n" : "")
            + "  access_log "
            + prefix.resolve("access.log")
            + ";\n"
            + "  client_body_temp_path "
            + prefix.resolve("tmp/body")
            + ";\n"
            + "  proxy_temp_path "
            + prefix.resolve("tmp/proxy")
            + ";\n"
            + "  fastcgi_temp_path "
            + prefix.resolve("tmp/fastcgi")
            + ";\n"
            + "  uwsgi_temp_path "
            + prefix.resolve("tmp/uwsgi")
            + ";\n"
            + "  scgi_temp_path "
            + prefix.resolve("tmp/scgi")
            + ";\n"
            + "  sendfile on;\n"
            + servers
            + "}\n";
    Path confFile = prefix.resolve("nginx.conf");
    Files.writeString(confFile, conf);
    Process p =
        new ProcessBuilder(
                bin.toString(),
                "-p",
                prefix.toString(),
                "-c",
                confFile.toString(),
                "-e",
                prefix.resolve("error.log").toString(),
                "-g",
                "daemon off;")
            .redirectErrorStream(true)
            .redirectOutput(prefix.resolve("stdout.log").toFile())
            .start();
    Nginx n = new Nginx(p, ports, prefix);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (int port : ports) {
      while (!accepts(port)) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          n.close();
          fail(
              "nginx did not start: "
                  + Files.readString(prefix.resolve("stdout.log"))
                  + (Files.exists(prefix.resolve("error.log"))
                      ? Files.readString(prefix.resolve("error.log"))
                      : ""));
        }
        Thread.sleep(20);
      }
    }
    return n;
  }

  /** The provider's log format for nginx, as docs/provider.md tells admins to include it. */
  private static final Path LOG_FORMAT =
      Path.of("..", "..", "docs", "provider-nginx.conf").toAbsolutePath().normalize();

  /** The port of a mirror. */
  int port(int mirror) {
    return ports.get(mirror);
  }

  /** A mirror's access log in the braid format (when started with braid logs). */
  Path braidLog(int mirror) {
    return prefix.resolve("braid-" + ports.get(mirror) + ".log");
  }

  URI uri(int mirror, String name) {
    return URI.create("http://127.0.0.1:" + ports.get(mirror) + "/" + name);
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
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

  Path prefix() {
    return prefix;
  }
}
