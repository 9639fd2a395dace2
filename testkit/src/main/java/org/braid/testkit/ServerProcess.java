package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A server process a launcher started: it is up once every one of its ports accepts connections on
 * 127.0.0.1; if it exits or is not up within the start timeout, the calling test fails with the
 * server's own output and log files. Closing stops it (SIGTERM, then SIGKILL after 5 s).
 *
 * <p>Every launcher ({@link NginxServer}, {@link GlobusGridFtpServer}) builds its command line and
 * configuration and hands them to {@link #start}; a new launcher does the same.
 */
public final class ServerProcess implements AutoCloseable {

  /** How long a server may take to listen on all its ports. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  private final String name;
  private final Process process;

  private ServerProcess(String name, Process process) {
    this.name = name;
    this.process = process;
  }

  /**
   * Starts {@code command} with its standard output and error in {@code output} and waits until
   * every port in {@code ports} accepts connections on 127.0.0.1.
   *
   * @param name the server's name for messages, e.g. "nginx"
   * @param command the command line
   * @param output the file that receives the process's standard output and error
   * @param ports the ports the server listens on once started
   * @param logs more files worth showing when the server does not start (e.g. its error log)
   * @return the running server
   */
  public static ServerProcess start(
      String name, List<String> command, Path output, List<Integer> ports, Path... logs) {
    Objects.requireNonNull(name, "name");
    List<Path> shown = new ArrayList<>(List.of(output));
    shown.addAll(List.of(logs));
    Process p;
    try {
      p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    }
    ServerProcess server = new ServerProcess(name, p);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    for (int port : ports) {
      while (!Loopback.accepts(port)) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          server.close();
          String why = p.isAlive() ? "is not listening on port " + port : "exited";
          fail(name + " did not start (" + why + "): " + command + "\n" + contents(shown));
        }
        try {
          Thread.sleep(20); // polling the server's port while it starts
        } catch (InterruptedException e) {
          server.close();
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while " + name + " was starting", e);
        }
      }
    }
    return server;
  }

  /** Whether the process is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** "running", or "exited with status N" once the process has ended. */
  public String status() {
    return process.isAlive() ? "running" : "exited with status " + process.exitValue();
  }

  /** The server's name, as given to {@link #start}. */
  public String name() {
    return name;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String contents(List<Path> files) {
    StringBuilder b = new StringBuilder();
    for (Path f : files) {
      b.append("--- ").append(f).append(":\n");
      try {
        b.append(Files.exists(f) ? Files.readString(f) : "(not written)\n");
      } catch (IOException e) {
        b.append("(unreadable: ").append(e.getMessage()).append(")\n");
      }
    }
    return b.toString();
  }
}
