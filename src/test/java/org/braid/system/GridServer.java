package org.braid.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.braid.testkit.Loopback;
import org.braid.testkit.RealComponent;
import org.braid.testkit.ServerProcess;

/**
 * The Python file server of {@code src/test/python/grid_server.py} on 127.0.0.1: HTTPS with client
 * certificates verified against a CA directory (RFC 3820 proxies allowed), bearer tokens, RFC 3230
 * and RFC 9530 digests, redirects; every request logged as a JSON line.
 */
final class GridServer implements AutoCloseable {
  static final Path SCRIPT = Path.of("python", "grid_server.py");

  final int port;
  final Path log;
  final boolean tls;
  private final ServerProcess process;

  private GridServer(int port, Path log, boolean tls, ServerProcess process) {
    this.port = port;
    this.log = log;
    this.tls = tls;
    this.process = process;
  }

  /** The python3 that runs the server (3.10 or later, for VERIFY_ALLOW_PROXY_CERTS). */
  static Path python() {
    return RealComponent.executable("python3", "python3");
  }

  /**
   * Starts the server on a free port.
   *
   * @param work a directory for its log and output
   * @param root the directory it serves
   * @param options more command-line options (see the script)
   */
  static GridServer start(Path work, Path root, String... options) throws IOException {
    Files.createDirectories(work);
    int port = Loopback.freePort();
    Path log = work.resolve("requests-" + port + ".jsonl");
    Files.writeString(log, "");
    List<String> cmd = new ArrayList<>();
    cmd.add(python().toString());
    cmd.add(SCRIPT.toAbsolutePath().toString());
    cmd.addAll(
        List.of(
            "--port", Integer.toString(port), "--root", root.toString(), "--log", log.toString()));
    cmd.addAll(List.of(options));
    boolean tls = cmd.contains("--cert");
    ServerProcess p =
        ServerProcess.start(
            "grid_server.py", cmd, work.resolve("server-" + port + ".out"), List.of(port));
    return new GridServer(port, log, tls, p);
  }

  /** The URL of a file on this server under the given host name (127.0.0.1 or localhost). */
  URI uri(String host, String path) {
    return URI.create((tls ? "https" : "http") + "://" + host + ":" + port + "/" + path);
  }

  URI uri(String path) {
    return uri("127.0.0.1", path);
  }

  /** The requests served so far, one JSON object each. */
  List<JsonNode> requests() throws IOException {
    ObjectMapper m = new ObjectMapper();
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      if (!line.isBlank()) {
        out.add(m.readTree(line));
      }
    }
    return out;
  }

  @Override
  public void close() {
    process.close();
  }
}
