package org.braid.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.braid.cli.logging.LogProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code braid} command: the entry point of the launcher script at the repository root.
 *
 * <p>Each subcommand lives in its own class in this package and is listed in {@link #SUBCOMMANDS}
 * (added in code, not in the annotation, so that a run builds only the one it needs). Every
 * subcommand exits non-zero with a one-line reason on failure.
 */
@Command(
    name = "braid",
    mixinStandardHelpOptions = true,
    versionProvider = BraidCli.Version.class,
    description = "Select the best replicas of a dataset and download it from several at once.",
    footer = {
      "",
      "Environment:",
      "  BRAID_LOG          log level (default warn), or LEVEL,LOGGER=LEVEL,... e.g.",
      "                     info,org.braid.coalloc.Engine=debug; log lines go to stderr",
      "  BRAID_LOG_WIRE=1   also log every byte HttpClient sends and receives (huge)",
      "  BRAID_LOG_CONFIG   a logback configuration file to use instead (the provider",
      "                     service uses /etc/braid/logback.xml)",
      "  BRAID_CDS=0        no class-data archive (kept in ~/.cache/braid)",
      "  BRAID_JAVA_OPTS    more JVM options",
      "  BRAID_TIMING=1     print the run's start-up milestones on stderr at exit",
      "See docs/download.md (Troubleshooting) and docs/provider.md."
    })
public final class BraidCli implements Runnable {

  /** The subcommands, one per line, so modules can add theirs without touching each other's. */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          CommandLine.HelpCommand.class,
          PredictCommand.class,
          ClassadCommand.class,
          ProviderCommand.class,
          GetCommand.class,
          DemoCommand.class,
          RankCommand.class);

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
   * Builds the command line with every subcommand and the given output streams, for the launcher
   * and for in-process tests.
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return commandLine(out, err, SUBCOMMANDS);
  }

  static CommandLine commandLine(PrintWriter out, PrintWriter err, List<Class<?>> subcommands) {
    CommandLine cl = new CommandLine(new BraidCli());
    for (Class<?> c : subcommands) {
      cl.addSubcommand(c);
    }
    return configure(cl, out, err);
  }

  /**
   * The command line of {@code braid get}, built from its model file ({@link CommandModel}) rather
   * than from the annotations, which is what {@link #execute} runs for {@code get}.
   */
  static CommandLine getCommandLine(PrintWriter out, PrintWriter err) {
    return configure(CommandModel.getCommandLine(), out, err);
  }

  private static CommandLine configure(CommandLine cl, PrintWriter out, PrintWriter err) {
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(new OneLineErrors());
    cl.setParameterExceptionHandler(new OneLineErrors());
    return cl;
  }

  /**
   * The name of each subcommand but help, as its {@code @Command} says (a test checks that they
   * agree), so that finding the one invoked reads no annotations: parsing those of six subcommands
   * the run does not use was part of every start.
   */
  static final Map<String, Class<?>> NAMES =
      Map.of(
          "predict", PredictCommand.class,
          "classad", ClassadCommand.class,
          "provider", ProviderCommand.class,
          "get", GetCommand.class,
          "demo", DemoCommand.class,
          "rank", RankCommand.class);

  /**
   * The subcommand the arguments run, if the first one names a subcommand other than help. Picocli
   * builds the model of every subcommand it is given, which for all of them costs about 0.1 s of
   * start-up; a run of one subcommand needs only that one.
   */
  static Optional<Class<?>> invoked(String... args) {
    return args.length == 0 ? Optional.empty() : Optional.ofNullable(NAMES.get(args[0]));
  }

  /**
   * Picocli's system property that stops it looking for Groovy's closure class when it first makes
   * an object: a class that is not there is looked for in the jar, which the JVM then opens and
   * reads the central directory of (about 10,000 entries, 15-25 ms of a start that otherwise takes
   * every class from the class-data archive). Braid's annotations hold no closures.
   */
  static final String NO_CLOSURES = "picocli.disable.closures";

  /** Runs the command line and returns its exit code. */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    if (System.getProperty(NO_CLOSURES) == null) {
      System.setProperty(NO_CLOSURES, "true");
    }
    Optional<Class<?>> sub = invoked(args);
    CommandLine cl =
        sub.isPresent() && sub.get() == GetCommand.class
            ? getCommandLine(out, err)
            : commandLine(out, err, sub.<List<Class<?>>>map(List::of).orElse(SUBCOMMANDS));
    StartupClock.mark("built");
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  public static void main(String[] args) {
    StartupClock.mark("main");
    ClassDataArchive.markStaleIfUnused();
    LogProvider.select();
    PrintWriter err = new PrintWriter(System.err, /* autoFlush= */ true);
    int code = execute(new PrintWriter(System.out, /* autoFlush= */ true), err, args);
    StartupClock.mark("exit");
    StartupClock.print(err);
    System.exit(code);
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
