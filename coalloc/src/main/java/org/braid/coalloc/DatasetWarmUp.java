package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads and initialises the classes a dataset job needs before its first byte (the job, its
 * scheduler and fetchers, the HTTP client of a server, the report), on a thread of its own while
 * the caller still reads the dataset's list: on a cold JVM that is a few hundred milliseconds of
 * class loading and verification otherwise spent between the list and the first byte. Makes no
 * connection and touches no file.
 */
final class DatasetWarmUp {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetWarmUp.class);

  /** The job's classes, in the order a job first uses them. */
  static final List<Class<?>> CLASSES =
      List.of(
          DatasetSpec.class,
          DatasetJob.class,
          DatasetScheduler.class,
          DatasetEstimates.class,
          DatasetChooser.class,
          DatasetServer.class,
          DatasetFileState.class,
          DatasetOutput.class,
          DatasetState.class,
          SourcePool.class,
          DatasetJournal.class,
          DatasetFetch.class,
          DatasetTask.class,
          DatasetCoalloc.class,
          DatasetWhole.class,
          DatasetHttpGet.class,
          HttpRangeSource.class,
          DatasetOutcome.class,
          StreamDigests.class,
          DatasetReports.class);

  private DatasetWarmUp() {}

  /** Starts the warm-up on a daemon thread; returns at once. */
  static Thread start(SourceOptions options) {
    Thread t = new Thread(() -> run(options), "braid-warm-up");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
    return t;
  }

  static void run(SourceOptions options) {
    try {
      ClassLoader loader = DatasetWarmUp.class.getClassLoader();
      for (Class<?> c : CLASSES) {
        Class.forName(c.getName(), true, loader);
      }
      // an HTTP client as a job makes one per server (no connection until a request)
      try (CloseableHttpClient c =
          HttpRangeSource.client(URI.create("http://127.0.0.1:9/warm-up"), options, 1)) {
        c.getClass(); // built: its connection manager and configuration classes are loaded
      }
      // the report's code, on a report of one file
      DatasetReports.json(
          new DatasetReport(
              "warm-up",
              Path.of("."),
              List.of(
                  new DatasetFileReport(
                      "a",
                      1,
                      DatasetFileState.FETCHED,
                      0.5,
                      "00",
                      Map.of("http://a:80", 1L),
                      null)),
              List.of(),
              Instant.EPOCH,
              1,
              1,
              1,
              null));
    } catch (ClassNotFoundException | IOException | RuntimeException | LinkageError e) {
      LOG.debug("warm-up: {}", e.toString()); // only a missed speed-up
    }
  }
}
