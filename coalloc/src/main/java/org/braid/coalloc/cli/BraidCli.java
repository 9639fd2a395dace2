package org.braid.coalloc.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code braid} command: the entry point of the launcher script at the repository root.
 *
 * <p>Each subcommand lives in its own class in this package and is listed here. Every
 * subcommand exits non-zero with a one-line reason on failure.
 */
@Command(
    name = "braid",
    mixinStandardHelpOptions = true,
    versionProvider = BraidCli.Version.class,
    description = "Select the best replicas of a dataset and download it from several at once.",
    subcommands = {
      // One subcommand per line, so modules can add theirs without touching each other's.
      CommandLine.HelpCommand.class,
      PredictCommand.class,
      ClassadCommand.class,
      ProviderCommand.class,
      GetCommand.class,
      DemoCommand.class,
    })
public final class BraidCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Exit code for bad usage or bad input. */
  public static final int EXIT_USAGE = 2;

  /** Exit code for a failure while doing the work (I/O, network, verification). */
  public static final int EXIT_FAILURE = 1;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Builds the command line with the given output streams, for the launcher and for in-process
   * tests.
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new BraidCli());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(new OneLineErrors());
    cl.setParameterExceptionHandler(new OneLineErrors());
    return cl;
  }

  /** Runs the command line and returns its exit code. */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    int code = commandLine(out, err).execute(args);
    out.flush();
    err.flush();
    return code;
  }

  public static void main(String[] args) {
    System.exit(
        execute(
            new PrintWriter(System.out, /* autoFlush= */ true),
            new PrintWriter(System.err, /* autoFlush= */ true),
            args));
  }

  /** Reports the version from the jar manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = BraidCli.class.getPackage().getImplementationVersion();
      return new String[] {"braid " + (v == null ? "dev" : v)};
    }
  }
}
