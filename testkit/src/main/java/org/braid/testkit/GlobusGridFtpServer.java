package org.braid.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A real globus-gridftp-server on 127.0.0.1, anonymous ({@code -aa}), in the foreground ({@code
 * -s}), control and data channels on loopback, usage statistics off, with a transfer log ({@code
 * -Z}). Run as root it serves anonymous clients as {@code nobody}: give it directories from {@link
 * SharedDirs}.
 *
 * <pre>{@code
 * try (GlobusGridFtpServer ftp = GlobusGridFtpServer.builder(logs).start()) {
 *   URI u = ftp.uri(file);
 *   String log = Files.readString(ftp.transferLog());
 * }
 * }</pre>
 *
 * <p>Missing server: see {@link RealComponent} (Debian package {@value #DEBIAN_PACKAGE}).
 */
public final class GlobusGridFtpServer implements AutoCloseable {

  /** The Debian package that installs globus-gridftp-server. */
  public static final String DEBIAN_PACKAGE = "globus-gridftp-server-progs";

  private final ServerProcess process;
  private final int port;
  private final Path transferLog;

  private GlobusGridFtpServer(ServerProcess process, int port, Path transferLog) {
    this.process = process;
    this.port = port;
    this.transferLog = transferLog;
  }

  /** The server executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path binary() {
    return RealComponent.executable("globus-gridftp-server", DEBIAN_PACKAGE);
  }

  /**
   * A builder for a server whose logs go to {@code logDir} (created if missing).
   *
   * @throws NullPointerException if logDir is null
   */
  public static Builder builder(Path logDir) {
    return new Builder(logDir);
  }

  /** The control channel's port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The transfer log ({@code -Z}): one line per finished transfer. */
  public Path transferLog() {
    return transferLog;
  }

  /** {@code gsiftp://127.0.0.1:<port>/<absolute path of file>}. */
  public URI uri(Path file) {
    return uri("gsiftp", file);
  }

  /**
   * {@code <scheme>://127.0.0.1:<port>/<absolute path of file>}, e.g. "ftp" for globus-url-copy.
   */
  public URI uri(String scheme, Path file) {
    return URI.create(scheme + "://127.0.0.1:" + port + file.toAbsolutePath());
  }

  @Override
  public void close() {
    process.close();
  }

  /** Configures and starts a {@link GlobusGridFtpServer}. Not thread-safe. */
  public static final class Builder {
    private final Path logDir;
    private final List<String> options = new ArrayList<>();
    private Path transferLog;
    private String debugLevels = "error,warn,info";

    private Builder(Path logDir) {
      this.logDir = Objects.requireNonNull(logDir, "logDir").toAbsolutePath();
    }

    /** The transfer log's file. Default: {@code transfer-<port>.log} in the log directory. */
    public Builder transferLog(Path file) {
      this.transferLog = Objects.requireNonNull(file, "file").toAbsolutePath();
      return this;
    }

    /** The server log's levels ({@code -d}). Default: "error,warn,info". */
    public Builder debugLevels(String levels) {
      this.debugLevels = Objects.requireNonNull(levels, "levels");
      return this;
    }

    /** Adds command-line options, e.g. {@code "-disable-command-list", "ERET"}. */
    public Builder options(String... more) {
      options.addAll(List.of(more));
      return this;
    }

    /**
     * Starts the server; returns once it accepts connections. Missing server ends the calling test
     * (see {@link RealComponent}).
     */
    public GlobusGridFtpServer start() throws IOException {
      Path bin = binary();
      Files.createDirectories(logDir);
      int port = Loopback.freePort();
      Path transfer =
          transferLog != null ? transferLog : logDir.resolve("transfer-" + port + ".log");
      Path serverLog = logDir.resolve("server-" + port + ".log");
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
                  debugLevels,
                  "-l",
                  serverLog.toString(),
                  "-Z",
                  transfer.toString(),
                  // no usage report to Globus: test servers talk to 127.0.0.1 only
                  "-disable-usage-stats"));
      if ("root".equals(System.getProperty("user.name"))) {
        cmd.add("-anonymous-user");
        cmd.add("nobody");
      }
      cmd.addAll(options);
      ServerProcess p =
          ServerProcess.start(
              "globus-gridftp-server",
              cmd,
              logDir.resolve("stdout-" + port + ".log"),
              List.of(port),
              serverLog);
      return new GlobusGridFtpServer(p, port, transfer);
    }
  }
}
