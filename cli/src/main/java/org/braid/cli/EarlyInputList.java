package org.braid.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.braid.broker.catalog.CatalogException;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.braid.coalloc.DatasetFile;

/**
 * Reads the input list of {@code braid get -i LIST} on a thread of its own from the moment the
 * command starts, while the command line is still being built and parsed (about 60 ms of a cold
 * JVM) and the job's code warms up: reading a 1,000-entry list is 100-150 ms of a cold JVM, and was
 * the longest step between the launcher and the first request. The list is read exactly as {@link
 * DatasetInputs} reads it ({@link Catalogs#readInputList}, every entry made a {@link DatasetFile});
 * the command takes the result only if its parsed {@code -i} names the same path, otherwise reads
 * the list itself. Errors are those of reading it then. The arguments are only looked at, never
 * interpreted: a guess that is wrong costs a read of a file, nothing else.
 */
final class EarlyInputList {
  private static volatile EarlyInputList started;

  private final Path path;
  private final FutureTask<DatasetInputs> task;

  private EarlyInputList(Path path) {
    this.path = path;
    this.task = new FutureTask<>(() -> read(path));
  }

  /**
   * Starts reading the list if {@code args} look like {@code get ... -i LIST} (or {@code
   * --input-file LIST}, {@code --input-file=LIST}) with the option once, before any {@code --}.
   */
  static void start(String... args) {
    started = null;
    Path p = listPath(args);
    if (p == null) {
      return;
    }
    EarlyInputList e = new EarlyInputList(p);
    Thread t = new Thread(e.task, "braid-list");
    t.setDaemon(true);
    started = e;
    t.start();
  }

  /** The list {@code args} name, or null if they do not name one exactly once. */
  static Path listPath(String... args) {
    if (args.length < 3 || !args[0].equals("get")) {
      return null;
    }
    String found = null;
    int seen = 0;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        break;
      }
      String value = null;
      if ((a.equals("-i") || a.equals("--input-file")) && i + 1 < args.length) {
        value = args[++i];
      } else if (a.startsWith("--input-file=")) {
        value = a.substring("--input-file=".length());
      } else if (a.startsWith("-i")) {
        seen++; // -iLIST, or -i last: left to the command line
      }
      if (value != null) {
        seen++;
        found = value;
      }
    }
    if (seen != 1 || found == null || found.isEmpty()) {
      return null;
    }
    try {
      return Path.of(found);
    } catch (InvalidPathException e) {
      return null; // the command line says what is wrong with it
    }
  }

  /**
   * The dataset of the list read early, if one was started for {@code list}; null otherwise (read
   * it now). Taken once. Waits for the read to end.
   *
   * @throws IllegalArgumentException as {@link DatasetInputs#read} for a bad list
   */
  static DatasetInputs take(Path list) {
    EarlyInputList e = started;
    if (e == null || !e.path.equals(list)) {
      return null;
    }
    started = null;
    try {
      return e.task.get();
    } catch (InterruptedException x) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException x) {
      Throwable c = x.getCause();
      if (c instanceof CatalogException) {
        throw new IllegalArgumentException(c.getMessage(), c);
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }

  /** What {@link DatasetInputs#read} makes of an input list with no selection. */
  private static DatasetInputs read(Path list) throws CatalogException {
    return DatasetInputs.selected(Catalogs.readInputList(list, CatalogLimits.DEFAULT), List.of());
  }
}
