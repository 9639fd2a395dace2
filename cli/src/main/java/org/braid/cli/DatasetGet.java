package org.braid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.braid.broker.Broker;
import org.braid.broker.Request;
import org.braid.coalloc.Dataset;
import org.braid.coalloc.DatasetFile;
import org.braid.coalloc.DatasetOrder;
import org.braid.coalloc.DatasetReport;
import org.braid.coalloc.DatasetReports;
import org.braid.coalloc.Download;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;

/**
 * {@code braid get -d DIR}: reads the dataset ({@link DatasetInputs}), plans it with the broker
 * ({@link DatasetPlan}) on a thread of its own while the job already runs (the plan re-orders the
 * files not yet started when it arrives), runs it as one {@link Dataset} job with one progress
 * line, and prints one report. Exit code 0 when every file is verified, 1 when some failed (the
 * summary names them).
 */
final class DatasetGet {
  private final GetCommand get;
  private final DatasetOptions opts;

  DatasetGet(GetCommand get, DatasetOptions opts) {
    this.get = get;
    this.opts = opts;
  }

  int run() throws IOException {
    if (get.output != null) {
      throw new IllegalArgumentException(
          "give -o FILE for one file or -d DIR for a dataset, not both");
    }
    if (!get.rates.isEmpty() || !get.checksums.isEmpty() || get.trace != null || get.plot != null) {
      throw new IllegalArgumentException(
          "--rate, --checksum, --trace and --plot are for one file (-o); with -d use a catalog's"
              + " hashes or --checksums FILE");
    }
    boolean triesGiven = get.spec.commandLine().getParseResult().hasMatchedOption("--max-tries");
    get.transfer.apply(Dataset.builder(), triesGiven); // checks them before any network work
    if (opts.concurrency < 0 || opts.concurrency > 1024) {
      throw new IllegalArgumentException("-j must be in 1..1024: " + opts.concurrency);
    }
    PrintWriter err = get.spec.commandLine().getErr();
    SourceOptions so = get.sourceOptions();
    Dataset.warmUp(so); // the job's code loads while the list is read
    DatasetListFeed feed = null;
    DatasetInputs in;
    if (DatasetListFeed.applies(get.source, opts, get.urls)) {
      // an -i list: the job starts after its first entries and reads the rest as it runs
      feed = DatasetListFeed.open(opts, so, err);
      in = feed.head();
    } else {
      in = DatasetInputs.read(get.source, opts, get.urls, so);
      for (DatasetFile f : in.files()) {
        for (URI u : f.sources()) {
          so.checkTokenTransport(u); // before any request
        }
      }
    }
    StartupClock.mark("listed");
    printNotes(err, in.notes(), 0);
    double timeout = get.discoveryTimeout;
    if (!(timeout >= 0) || timeout > 3600) {
      throw new IllegalArgumentException(
          "--discovery-timeout must be in [0, 3600] seconds: " + timeout);
    }
    CompletableFuture<DatasetOrder> arriving = null;
    Thread planner = null;
    if (timeout == 0) {
      noPlan(err, "--discovery-timeout 0");
    } else {
      if (get.requirements != null) {
        // a bad Requirements expression is a usage error, told before anything starts
        Request.builder(in.catalog().get(0).replicas()).requirements(get.requirements).build();
      }
      arriving = new CompletableFuture<>();
      planner =
          planning(
              feed == null ? CompletableFuture.completedFuture(in) : feed.whole(), err, arriving);
    }
    err.flush();
    Path journal =
        get.noJournal ? null : get.journal != null ? get.journal : Download.defaultJournal();
    Dataset.Builder b =
        Dataset.builder()
            .files(in.files())
            .moreFiles(feed)
            .planArriving(arriving)
            .outputDirectory(opts.dir)
            .concurrency(opts.concurrency)
            .scheme(Scheme.parse(get.scheme, get.blocks))
            .sourceOptions(so)
            .journal(journal)
            .resume(!get.noResume)
            .coallocateAbove(opts.coallocateAbove);
    get.transfer.apply(b, triesGiven);
    DatasetProgressLine line = null;
    if (System.console() != null && !get.json) {
      line = new DatasetProgressLine(err);
      b.progress(line);
    }
    List<String> names = new ArrayList<>();
    List<Instant> times = new ArrayList<>();
    Thread plan = planner;
    if (StartupClock.ON || plan != null) {
      b.milestones(
          (name, when) -> {
            if (plan != null && name.equals("byte1")) {
              // the plan's work (history, discovery: an HTTP client with TLS, a few hundred ms of
              // CPU on a cold JVM) once the first answer is in, not while the first requests of
              // every server still need the two cores
              plan.start();
            }
            if (StartupClock.ON) {
              synchronized (names) {
                names.add(name);
                times.add(when);
              }
            }
          });
    }
    Dataset d = b.build();
    StartupClock.mark("setup");
    DatasetReport r;
    try {
      r = runWithHook(d, line);
    } finally {
      stopPlanning();
    }
    synchronized (names) {
      for (int i = 0; i < names.size(); i++) {
        StartupClock.at(names.get(i), times.get(i));
      }
    }
    StartupClock.at("jobend", r.start().plusNanos((long) (r.seconds() * 1e9)));
    PrintWriter out = get.spec.commandLine().getOut();
    out.print(
        get.json ? DatasetReports.json(r) + System.lineSeparator() : DatasetReports.text(r, 20));
    out.flush();
    StartupClock.mark("reported");
    if (!r.complete()) {
      err.println(
          "braid: "
              + r.failures().size()
              + " of "
              + r.files().size()
              + " files not fetched"
              + (r.stopped() != null ? " (stopped: " + r.stopped() + ")" : "")
              + "; run the same command again to resume");
      err.flush();
      return BraidCli.EXIT_FAILURE;
    }
    return 0;
  }

  /** Prints notes about the input, at most 10 in all ({@code before} were printed earlier). */
  static void printNotes(PrintWriter err, List<String> notes, int before) {
    int shown = before;
    for (String n : notes) {
      if (shown++ < 10) {
        err.println("braid: " + n);
      }
    }
    if (shown > 10 && before <= 10) {
      err.println("braid: ... and " + (shown - 10) + " more notes");
    }
  }

  private static void noPlan(PrintWriter err, String why) {
    synchronized (err) {
      err.println(
          "braid: no batch plan ("
              + why
              + "): files in the input's order, each server's rate measured as the job runs");
      err.flush();
    }
  }

  /**
   * The thread (not started) that plans the batch with the broker into {@code f}, while the job
   * starts in the input's order; it is started when the job's first body byte arrives, so that
   * discovery and the plan (opening the history, reading the journal) cost the job no time before
   * its first answers, not even the CPU they would take from it. It plans once the whole input has
   * been read ({@code inputs}).
   */
  private Thread planning(
      CompletableFuture<DatasetInputs> inputs, PrintWriter err, CompletableFuture<DatasetOrder> f) {
    Thread t =
        new Thread(
            () -> {
              try {
                DatasetPlan p = plan(inputs.join());
                if (p.note() != null) {
                  noPlan(err, p.note());
                }
                List<String> paths = new ArrayList<>(p.files().size());
                for (DatasetFile x : p.files()) {
                  paths.add(x.path());
                }
                f.complete(new DatasetOrder(paths, p.rates()));
              } catch (CompletionException e) {
                // the input was bad: the job stops and says so; no plan to wait for
              } catch (RuntimeException e) {
                f.completeExceptionally(e);
              }
            },
            "braid-plan");
    t.setDaemon(true);
    return t;
  }

  /** The broker of the plan in progress, or null. */
  private volatile Broker planBroker;

  /** Whether the job has ended (the plan in progress is no longer needed). */
  private volatile boolean jobEnded;

  /**
   * Stops the discovery of a plan still in progress when the job ends: its HTTP client's I/O
   * threads wait in native code ({@code epoll_wait}), and the JVM's exit waits up to about 300 ms
   * for threads in native code. A job shorter than its plan (a 1,000-file list on 127.0.0.1, about
   * 2 s) ended 320-380 ms before its process did, 15-40 ms without a plan.
   */
  private void stopPlanning() {
    jobEnded = true;
    Broker b = planBroker;
    if (b != null) {
      b.closeDiscovery();
    }
  }

  private DatasetPlan plan(DatasetInputs in) {
    double timeout = get.discoveryTimeout;
    Broker.Builder bb =
        Broker.builder()
            .timeout(Duration.ofMillis(Math.max(1, (long) (timeout * 1000))))
            .providerPort(get.providerPort)
            .providers(in.providers())
            .journal(
                get.noJournal
                    ? null
                    : get.journal != null ? get.journal : Download.defaultJournal());
    if (opts.clientCapacity != null) {
      bb.clientCapacity(opts.clientCapacityRate());
    }
    try (Broker broker = bb.build()) {
      planBroker = broker;
      if (jobEnded) {
        broker.closeDiscovery(); // the job ended while the broker was built
      }
      return DatasetPlan.of(in, broker, get.requirements);
    } finally {
      planBroker = null;
    }
  }

  private static DatasetReport runWithHook(Dataset d, DatasetProgressLine line) throws IOException {
    CancelOnExit exit = new CancelOnExit(d::cancel);
    try {
      return d.run();
    } finally {
      exit.close();
      if (line != null) {
        line.finish();
      }
    }
  }
}
