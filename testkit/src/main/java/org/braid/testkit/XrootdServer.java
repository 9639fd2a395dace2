package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real XRootD data server ({@code xrootd}) on 127.0.0.1, exporting one directory read-only, with
 * a configuration file the test writes (more directives through {@link Builder#directives}). xrootd
 * binds its port on every address; to keep it on 127.0.0.1 the launcher binds the socket itself and
 * hands it over by systemd's socket-activation protocol ({@code LISTEN_FDS}), which the Debian
 * xrootd supports, through a few lines of Python that bind, set the variables and exec xrootd. Run
 * as root, xrootd runs as {@code nobody} ({@code -R nobody}): give it directories from {@link
 * SharedDirs} and world-readable files.
 *
 * <pre>{@code
 * try (XrootdServer x = XrootdServer.builder(work, exported).start()) {
 *   URI u = x.uri(file);   // root://127.0.0.1:<port>//<absolute path>
 * }
 * }</pre>
 *
 * <p>Missing server: see {@link RealComponent} (Debian package {@value #DEBIAN_PACKAGE}).
 */
public final class XrootdServer implements AutoCloseable {

  /** The Debian package that installs xrootd. */
  public static final String DEBIAN_PACKAGE = "xrootd-server";

  /** Binds argv[1]:argv[2], passes the socket as fd 3 (LISTEN_FDS=1), execs argv[3:]. */
  private static final Logger LOG = LoggerFactory.getLogger(XrootdServer.class);

  private static final String ACTIVATE =
      String.join(
          "\n",
          "import os, socket, sys",
          "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
          "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
          "s.bind((sys.argv[1], int(sys.argv[2])))",
          "s.listen(128)",
          "fd = s.detach()",
          "if fd != 3:",
          "    os.dup2(fd, 3)",
          "    os.close(fd)",
          "os.set_inheritable(3, True)",
          "os.environ['LISTEN_FDS'] = '1'",
          "os.environ['LISTEN_PID'] = str(os.getpid())",
          "os.execv(sys.argv[3], sys.argv[3:])");

  /** The log's last start-up line ("------ xrootd anon@host:1094 initialization completed."). */
  private static final Pattern READY = Pattern.compile("xrootd \\S+:\\d+ initialization completed");

  private final ServerProcess process;
  private final int port;
  private final Path log;

  private XrootdServer(ServerProcess process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** The xrootd executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path binary() {
    return RealComponent.executable("xrootd", DEBIAN_PACKAGE);
  }

  /**
   * A builder for a server exporting {@code exported}, with its configuration, admin directory and
   * log under {@code workDir} (created if missing).
   *
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(Path workDir, Path exported) {
    return new Builder(workDir, exported);
  }

  /** The port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The server's log. */
  public Path log() {
    return log;
  }

  /** {@code root://127.0.0.1:<port>//<absolute path of file>}. */
  public URI uri(Path file) {
    return uri("root", file);
  }

  /** {@code <scheme>://127.0.0.1:<port>//<absolute path of file>}, e.g. "roots". */
  public URI uri(String scheme, Path file) {
    return URI.create(scheme + "://127.0.0.1:" + port + "/" + file.toAbsolutePath());
  }

  @Override
  public void close() {
    process.close();
  }

  /** Configures and starts an {@link XrootdServer}. Not thread-safe. */
  public static final class Builder {
    private final Path workDir;
    private final Path exported;
    private final List<String> directives = new ArrayList<>();
    private int port;

    private Builder(Path workDir, Path exported) {
      this.workDir = Objects.requireNonNull(workDir, "workDir").toAbsolutePath();
      this.exported = Objects.requireNonNull(exported, "exported").toAbsolutePath();
    }

    /**
     * Adds configuration directives, one per line, e.g. {@code "xrootd.chksum adler32"}, {@code
     * "sec.protocol unix"} or {@code "xrootd.redirect 127.0.0.1:1095 /data"}.
     */
    public Builder directives(String... lines) {
      directives.addAll(List.of(lines));
      return this;
    }

    /**
     * Offers TLS ({@code roots://}) with this certificate and key (PEM files the server's user can
     * read; run as root, give the key to {@code nobody}); client certificates are not asked for
     * ({@code xrd.tlsca noverify}). Default: no TLS.
     */
    public Builder tls(Path certificate, Path key) {
      directives.add("xrd.tls " + certificate.toAbsolutePath() + " " + key.toAbsolutePath());
      directives.add("xrd.tlsca noverify");
      directives.add("xrootd.tls capable all");
      return this;
    }

    /** The port to listen on. Default: a free port (see {@link Loopback#freePort}). */
    public Builder port(int p) {
      this.port = p;
      return this;
    }

    /**
     * Starts the server; returns once it accepts connections. A missing xrootd or python3 ends the
     * calling test (see {@link RealComponent}).
     */
    public XrootdServer start() throws IOException {
      Path bin = binary();
      Path python = RealComponent.executable("python3", "python3");
      int p = port > 0 ? port : Loopback.freePort();
      Files.createDirectories(workDir);
      Path dir = SharedDirs.open(workDir, "xrootd-" + p);
      SharedDirs.open(dir, "admin");
      Path conf = dir.resolve("xrootd.cfg");
      List<String> lines = new ArrayList<>();
      lines.add("all.export " + exported + " nolock r/o");
      lines.add("xrd.port " + p);
      lines.add("xrd.network nodnr");
      lines.add("all.adminpath " + dir.resolve("admin"));
      lines.add("all.pidpath " + dir.resolve("admin"));
      // its working directory (core files), else it links the test's one into the admin path
      lines.add("xrd.homepath " + dir.resolve("admin"));
      lines.addAll(directives);
      Files.write(conf, lines, StandardCharsets.UTF_8);
      Path log = dir.resolve("admin").resolve("xrootd.log");
      List<String> cmd =
          new ArrayList<>(
              List.of(python.toString(), "-c", ACTIVATE, "127.0.0.1", Integer.toString(p)));
      cmd.addAll(List.of(bin.toString(), "-c", conf.toString(), "-l", log.toString()));
      if ("root".equals(System.getProperty("user.name"))) {
        cmd.addAll(List.of("-R", "nobody"));
      }
      Path stdout = dir.resolve("stdout.log");
      for (int attempt = 1; ; attempt++) {
        ServerProcess sp = ServerProcess.start("xrootd", cmd, stdout, List.of(p), log);
        String failure = awaitInitialized(sp, log, stdout, conf);
        if (failure == null) {
          return new XrootdServer(sp, p, log);
        }
        // once in a few dozen starts (CI, session 14) xrootd exited at once without a word in its
        // log or output: such a silent exit is tried once more, any other failure is the test's
        boolean silent = !Files.exists(log) && Files.size(stdout) == 0 && !sp.isAlive();
        if (!silent || attempt == 2) {
          fail(failure);
        }
        LOG.warn("xrootd exited at once without a word ({}); starting it again", sp.status());
      }
    }

    /**
     * The socket listens before xrootd has read its configuration: waits for the log's final
     * "initialization completed" line; null then, else (it reported failure, exited or took longer
     * than {@link ServerProcess#START_TIMEOUT}) stops it and returns the failure with the logs.
     */
    private static String awaitInitialized(ServerProcess sp, Path log, Path stdout, Path conf)
        throws IOException {
      long deadline = System.nanoTime() + ServerProcess.START_TIMEOUT.toNanos();
      while (true) {
        String text = Files.exists(log) ? Files.readString(log) : "";
        if (READY.matcher(text).find()) {
          return null;
        }
        if (text.contains("initialization failed")
            || !sp.isAlive()
            || System.nanoTime() > deadline) {
          String status = sp.status();
          sp.close();
          String out = Files.exists(stdout) ? Files.readString(stdout) : "";
          return "xrootd did not initialize ("
              + status
              + ") with "
              + conf
              + ":\n"
              + Files.readString(conf)
              + "--- log:\n"
              + text
              + "--- output:\n"
              + out;
        }
        try {
          Thread.sleep(20); // polling the log while xrootd starts
        } catch (InterruptedException e) {
          sp.close();
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while xrootd was starting", e);
        }
      }
    }
  }
}
