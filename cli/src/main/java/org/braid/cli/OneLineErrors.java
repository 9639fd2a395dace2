package org.braid.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.braid.coalloc.DownloadException;
import picocli.CommandLine;

/**
 * Turns failures into one line on standard error: "braid: reason", in plain words (Java class names
 * only with a command's {@code --verbose}). Bad usage exits with {@link BraidCli#EXIT_USAGE}, a
 * failed download with its {@link ExitCodes} code, other failures with {@link
 * BraidCli#EXIT_FAILURE}.
 */
final class OneLineErrors
    implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

  /** A command that reports its own failures (e.g. as JSON) and says how verbose to be. */
  interface Reporting {
    /** Whether error messages may show Java class names and causes. */
    boolean verbose();

    /** Reports the failure that ends with the given code and message; false to print it here. */
    boolean report(int code, String message);
  }

  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    int code = code(ex);
    Object c = cmd.getCommand();
    boolean verbose = c instanceof Reporting r && r.verbose();
    String m = verbose ? verboseMessage(ex) : message(ex);
    if (!(c instanceof Reporting r && r.report(code, m))) {
      cmd.getErr().println("braid: " + m);
    }
    cmd.getErr().flush();
    return code;
  }

  /** The exit code for a failure: see {@link ExitCodes}. */
  static int code(Exception ex) {
    if (ex instanceof DownloadException d) {
      return ExitCodes.of(d.kind());
    }
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

  /** The failure in plain words, one line, without Java class names. */
  static String message(Throwable ex) {
    Throwable t = ex;
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getMessage();
    if (t instanceof NoSuchFileException f) {
      m =
          "no such file: "
              + f.getFile()
              + (f.getReason() == null ? "" : " (" + f.getReason() + ")");
    } else if (t instanceof AccessDeniedException f) {
      m = "permission denied: " + f.getFile();
    } else if (t instanceof FileAlreadyExistsException f) {
      m = "already exists: " + f.getFile();
    } else if (t instanceof NotDirectoryException f) {
      m = "not a directory: " + f.getFile();
    } else if (t instanceof DirectoryNotEmptyException f) {
      m = "directory not empty: " + f.getFile();
    } else if (m == null || m.isBlank()) {
      m = t instanceof IOException ? "input/output error" : "internal error";
    }
    return m.replace('\n', ' ').replace('\r', ' ');
  }

  /** The failure with its class name and causes, for {@code --verbose}. */
  static String verboseMessage(Throwable ex) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (sb.length() > 0) {
        sb.append("; caused by ");
      }
      sb.append(t.getClass().getName()).append(": ").append(t.getMessage());
      if (sb.length() > 4000) {
        break;
      }
    }
    return sb.toString().replace('\n', ' ').replace('\r', ' ');
  }
}
