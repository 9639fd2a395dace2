package org.braid.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * Turns failures into one line on standard error: "braid: reason". Bad usage exits with {@link
 * BraidCli#EXIT_USAGE}, failures while working with {@link BraidCli#EXIT_FAILURE}.
 */
final class OneLineErrors
    implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    cmd.getErr().println("braid: " + message(ex));
    cmd.getErr().flush();
    if (ex instanceof IllegalArgumentException) {
      return BraidCli.EXIT_USAGE;
    }
    return BraidCli.EXIT_FAILURE;
  }

  @Override
  public int handleParseException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    cmd.getErr().println("braid: " + ex.getMessage());
    cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
    cmd.getErr().flush();
    return BraidCli.EXIT_USAGE;
  }

  static String message(Throwable ex) {
    Throwable t = ex;
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      m = t.getClass().getSimpleName();
    } else if (t instanceof IOException && !(t.getClass() == IOException.class)) {
      m = t.getClass().getSimpleName() + ": " + m;
    }
    return m.replace('\n', ' ');
  }
}
