package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx on 127.0.0.1: one process with one {@code server} block per configured server, each
 * on its own free port serving a directory, optionally rate-limited ({@code limit_rate}). Its
 * prefix directory holds the generated {@code nginx.conf}, the pid file, the error log, the access
 * log (unless another is chosen) and the temporary directories.
 *
 * <pre>{@code
 * try (NginxServer nginx = NginxServer.builder(prefix).server(www, "4m").server(www).start()) {
 *   URI fast = nginx.uri(0, "data.bin");
 * }
 * }</pre>
 *
 * <p>Missing nginx: see {@link RealComponent} (Debian package {@value #DEBIAN_PACKAGE}).
 */
public final class NginxServer implements AutoCloseable {

  /** The Debian package that installs nginx. */
  public static final String DEBIAN_PACKAGE = "nginx-light";

  /** Debian's build of nginx's WebDAV extension (libnginx-mod-http-dav-ext). */
  private static final Path DAV_EXT = Path.of("/usr/lib/nginx/modules/ngx_http_dav_ext_module.so");

  private final ServerProcess process;
  private final Path binary;
  private final Path prefix;
  private final Path conf;
  private final Path accessLog;
  private final List<Integer> ports;

  private NginxServer(
      ServerProcess process,
      Path binary,
      Path prefix,
      Path conf,
      Path accessLog,
      List<Integer> ports) {
    this.process = process;
    this.binary = binary;
    this.prefix = prefix;
    this.conf = conf;
    this.accessLog = accessLog;
    this.ports = ports;
  }

  /** The nginx executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path binary() {
    return RealComponent.executable("nginx", DEBIAN_PACKAGE);
  }

  /**
   * A builder for an nginx whose files go to {@code prefix} (created if missing).
   *
   * @throws NullPointerException if prefix is null
   */
  public static Builder builder(Path prefix) {
    return new Builder(prefix);
  }

  /** The port of the {@code server}-th server block (0-based, in the order they were added). */
  public int port(int server) {
    return ports.get(server);
  }

  /** {@code http://127.0.0.1:<port>} of the {@code server}-th server block. */
  public String base(int server) {
    return "http://127.0.0.1:" + port(server);
  }

  /**
   * The URI of {@code path} (already URL-encoded, no leading '/') on the {@code server}-th block.
   */
  public URI uri(int server, String path) {
    return URI.create(base(server) + "/" + path);
  }

  /** The prefix directory (configuration, pid file, logs). */
  public Path prefix() {
    return prefix;
  }

  /** The access log every server block writes. */
  public Path accessLog() {
    return accessLog;
  }

  /** The error log. */
  public Path errorLog() {
    return prefix.resolve("error.log");
  }

  /**
   * Makes nginx reopen its log files ({@code nginx -s reopen}, as logrotate does after renaming
   * them) and waits until the worker has reopened them: the master creates the files and then
   * signals the worker, so a request right after the files reappear could still be logged into the
   * renamed one (a fresh-clone CI run, session 14). The worker logs "reopening logs" and reopens
   * them before it handles another request.
   */
  public void reopenLogs() throws IOException, InterruptedException {
    long before = reopenings();
    Process reopen =
        new ProcessBuilder(
                binary.toString(),
                "-p",
                prefix.toString(),
                "-e",
                errorLog().toString(),
                "-c",
                conf.toString(),
                "-s",
                "reopen")
            .redirectErrorStream(true)
            .start();
    String output = new String(reopen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(reopen.waitFor(30, TimeUnit.SECONDS), "nginx -s reopen did not finish in 30 s");
    assertEquals(0, reopen.exitValue(), "nginx -s reopen: " + output);
    // The master process reopens the logs asynchronously after the signal.
    for (int i = 0; i < 200 && !Files.exists(accessLog); i++) {
      Thread.sleep(50);
    }
    assertTrue(Files.exists(accessLog), "nginx did not reopen " + accessLog);
    // the master's line and the one worker's
    for (int i = 0; i < 200 && reopenings() < before + 2; i++) {
      Thread.sleep(50);
    }
    assertTrue(reopenings() >= before + 2, "nginx's worker did not reopen its logs");
  }

  /** The error log's lines "reopening logs" (the master's and each worker's, one per reopen). */
  private long reopenings() throws IOException {
    Path log = errorLog();
    if (!Files.exists(log)) {
      return 0;
    }
    try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines.filter(l -> l.endsWith(": reopening logs")).count();
    }
  }

  @Override
  public void close() {
    process.close();
  }

  /** Configures and starts an {@link NginxServer}. Not thread-safe. */
  public static final class Builder {
    private final Path prefix;
    private final List<Path> roots = new ArrayList<>();
    private final List<String> rates = new ArrayList<>();
    private final List<String> serverLogs = new ArrayList<>();
    private final List<String> httpDirectives = new ArrayList<>();
    private Path accessLog;
    private String accessLogFormat;
    private boolean webDav;

    private Builder(Path prefix) {
      this.prefix = Objects.requireNonNull(prefix, "prefix").toAbsolutePath();
    }

    /** Adds a server block serving {@code root} at full speed. */
    public Builder server(Path root) {
      return server(root, null);
    }

    /**
     * Adds a server block serving {@code root} at most at {@code rate} bytes per second per
     * connection, in nginx's syntax ("4m", "512k"; "0" or null: unlimited).
     */
    public Builder server(Path root, String rate) {
      roots.add(Objects.requireNonNull(root, "root").toAbsolutePath());
      rates.add(rate);
      serverLogs.add(null);
      return this;
    }

    /**
     * The server block added last also writes its requests to its own log {@code file}, in the log
     * format named {@code format} (defined with {@link #http}; null: {@code combined}), besides the
     * shared access log.
     *
     * @throws IllegalStateException if no server block was added yet
     */
    public Builder serverLog(Path file, String format) {
      if (roots.isEmpty()) {
        throw new IllegalStateException("serverLog needs a server block before it");
      }
      String log = Objects.requireNonNull(file, "file").toAbsolutePath().toString();
      serverLogs.set(serverLogs.size() - 1, format == null ? log : log + " " + format);
      return this;
    }

    /**
     * Adds a directive inside the {@code http} block, before the access log and the servers, e.g.
     * {@code "include /path/provider-nginx.conf;"} to define a log format.
     */
    public Builder http(String directive) {
      httpDirectives.add(Objects.requireNonNull(directive, "directive"));
      return this;
    }

    /**
     * Lists directories over WebDAV in every server block: loads nginx's WebDAV extension module
     * ({@code PROPFIND} and {@code OPTIONS}, as dCache and Apache answer them). A missing module
     * ends the calling test (see {@link RealComponent}) with the Debian package to install.
     */
    public Builder webDav() {
      if (!Files.isRegularFile(DAV_EXT)) {
        RealComponent.unavailable(
            "nginx's WebDAV module is not installed (" + DAV_EXT + ")",
            "apt-get install libnginx-mod-http-dav-ext (or run .ci/install as root)");
      }
      webDav = true;
      return this;
    }

    /**
     * Writes the access log to {@code file} in the log format named {@code format} (defined with
     * {@link #http}; null: nginx's {@code combined}). Default: {@code access.log} in the prefix.
     */
    public Builder accessLog(Path file, String format) {
      this.accessLog = Objects.requireNonNull(file, "file").toAbsolutePath();
      this.accessLogFormat = format;
      return this;
    }

    /**
     * Writes the configuration and starts nginx; returns once every server block accepts
     * connections. Missing nginx ends the calling test (see {@link RealComponent}).
     *
     * @throws IllegalStateException if no server block was added
     */
    public NginxServer start() throws IOException {
      if (roots.isEmpty()) {
        throw new IllegalStateException("nginx needs at least one server block");
      }
      Path bin = binary();
      Files.createDirectories(prefix.resolve("tmp"));
      Path log = accessLog != null ? accessLog : prefix.resolve("access.log");
      List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < roots.size(); i++) {
        ports.add(Loopback.freePort());
      }
      Path conf = prefix.resolve("nginx.conf");
      Files.writeString(conf, config(log, ports));
      Path errorLog = prefix.resolve("error.log");
      ServerProcess p =
          ServerProcess.start(
              "nginx",
              List.of(
                  bin.toString(),
                  "-p",
                  prefix.toString(),
                  "-e",
                  errorLog.toString(),
                  "-c",
                  conf.toString()),
              prefix.resolve("stdout.log"),
              ports,
              errorLog);
      return new NginxServer(p, bin, prefix, conf, log, List.copyOf(ports));
    }

    private String config(Path log, List<Integer> ports) {
      List<String> c = new ArrayList<>();
      if ("root".equals(System.getProperty("user.name"))) {
        // Workers as root can read JUnit's private temporary directories.
        c.add("user root;");
      }
      if (webDav) {
        c.add("load_module " + DAV_EXT + ";");
      }
      c.add("worker_processes 1;");
      c.add("daemon off;");
      c.add("pid " + prefix.resolve("nginx.pid") + ";");
      // notice: reopenLogs waits for the worker's "reopening logs" line
      c.add("error_log " + prefix.resolve("error.log") + " notice;");
      c.add("events { worker_connections 256; }");
      c.add("http {");
      for (String d : httpDirectives) {
        c.add("  " + d);
      }
      String shared = log + (accessLogFormat == null ? "" : " " + accessLogFormat);
      c.add("  access_log " + shared + ";");
      for (String t : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
        c.add("  " + t + "_temp_path " + prefix.resolve("tmp/" + t) + ";");
      }
      c.add("  sendfile on;");
      for (int i = 0; i < roots.size(); i++) {
        String inside =
            (rates.get(i) == null ? "" : " limit_rate " + rates.get(i) + ";")
                + (webDav ? " dav_ext_methods PROPFIND OPTIONS;" : "");
        String limit = inside.isEmpty() ? "" : " location / {" + inside + " }";
        // access_log in a server block replaces the http block's: repeat the shared one.
        String own =
            serverLogs.get(i) == null
                ? ""
                : " access_log " + shared + "; access_log " + serverLogs.get(i) + ";";
        c.add(
            "  server { listen 127.0.0.1:"
                + ports.get(i)
                + "; root "
                + roots.get(i)
                + ";"
                + own
                + limit
                + " }");
      }
      c.add("}");
      return String.join("\n", c) + "\n";
    }
  }
}
