package org.braid.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.PieceHashes;
import org.braid.coalloc.PredictedRate;
import org.braid.coalloc.ReplicaReport;
import org.braid.coalloc.Reports;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code braid get}: download one file, or a whole dataset, from several replicas at once. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Download one file (-o OUT) or a whole dataset (-d DIR) from several replicas at once,"
          + " verified and resumable.",
      "A file is written to OUT.part and renamed to OUT when complete and verified;"
          + " run the same command again after an interruption to resume.",
      "A dataset (-d DIR) comes from directories listed recursively on every replica (-r URL...),"
          + " a Metalink's files (--metalink FILE [--name GLOB]...), a catalog (--catalog FILE"
          + " NAME: a file, a dataset or a glob) or an aria2-style input list (-i LIST). It is"
          + " planned by the broker (Min-Min over the replicas' forecasts), fetched -j files at"
          + " once with large files co-allocated, every file verified; files verified by an"
          + " earlier run are skipped. Exit code 1 when some file could not be fetched.",
    },
    footer = {
      "",
      "Exit codes (one file, -o):",
      "  0  the file is complete and verified; every replica served it well",
      "  2  usage: bad options or bad input (catalog, Metalink, checksum, URL)",
      "  3  the file is complete and verified, but some replica failed and was dropped",
      "  4  network: no replica could deliver the file",
      "  5  verification: checksum, piece hashes or declared size do not match",
      "  6  disk: the output cannot be written or was refused (no space, not a regular",
      "     file, exists without --force)",
      "  1  internal error;  130  interrupted (run again to resume)",
      "See docs/download.md."
    })
public final class GetCommand implements Callable<Integer>, OneLineErrors.Reporting {
  @Spec CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "URL",
      description =
          "Replica URLs (http, https, gsiftp, ftp, root, roots, file, or a local path), best"
              + " first.")
  List<String> urls = new ArrayList<>();

  @Mixin CatalogOptions source;

  @Mixin DatasetOptions dataset;

  @Option(
      names = "--requirements",
      paramLabel = "EXPR",
      defaultValue = "true",
      description =
          "With --metalink or --catalog: the broker's ClassAd Requirements for a replica,"
              + " e.g. 'other.AvgRDBandwidth > 5M/sec' (default: ${DEFAULT-VALUE}).")
  String requirements;

  @Option(
      names = "--discovery-timeout",
      defaultValue = "2",
      paramLabel = "SECONDS",
      description =
          "With --metalink or --catalog: the most the broker may spend asking the replicas'"
              + " information providers (default: ${DEFAULT-VALUE}); 0 skips the broker and uses the"
              + " catalog's order with no predicted rates.")
  double discoveryTimeout;

  @Option(
      names = "--provider-port",
      defaultValue = "8790",
      paramLabel = "PORT",
      description =
          "Port of the conventional provider URL http://HOST:PORT/v1/ads (default: ${DEFAULT-VALUE}).")
  int providerPort;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "OUT",
      description =
          "Output file (one file; -d DIR for a dataset); a directory (or a name ending in /)"
              + " means the remote file's name inside it. Only a regular file is ever replaced,"
              + " and only with --force.")
  String output;

  @Option(
      names = {"-f", "--force"},
      description = "Replace an existing output file.")
  boolean force;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress and no report; errors and warnings only.")
  boolean quiet;

  @Option(
      names = {"-v", "--verbose"},
      description =
          "Log each request's problems as they happen (one file; a dataset's log: BRAID_LOG=info);"
              + " errors with their causes.")
  boolean verbose;

  @Option(
      names = "--dry-run",
      description = "Show the plan (output, replicas, scheme, checks, limits) and exit.")
  boolean dryRun;

  @Mixin TransferOptions transfer;

  @Mixin ConnectionOptions connection;

  @Option(
      names = "--scheme",
      defaultValue = "adaptive",
      paramLabel = "NAME",
      description =
          "single, brute, history, conservative, aggressive or adaptive (default: ${DEFAULT-VALUE}).")
  String scheme;

  @Option(
      names = "--blocks",
      defaultValue = "10",
      paramLabel = "K",
      description = "Block count k for conservative and aggressive (default: ${DEFAULT-VALUE}).")
  int blocks;

  @Option(
      names = "--max-sources",
      defaultValue = "8",
      paramLabel = "N",
      description = "Use at most N replicas (default: ${DEFAULT-VALUE}).")
  int maxSources;

  @Option(
      names = "--checksum",
      paramLabel = "ALGO:HEX",
      description = "Expected whole-file digest (sha256, sha512, sha1, md5, adler32); repeatable.")
  List<String> checksums = new ArrayList<>();

  @Option(
      names = "--rate",
      paramLabel = "URL=RATE",
      description =
          "Predicted rate of a replica, e.g. http://a/f=80Mbit/s; repeatable."
              + " Needed by --scheme history; seeds the adaptive scheme.")
  List<String> rates = new ArrayList<>();

  @Option(
      names = "--json",
      description = "Print the report, or on failure an error object, as JSON on standard output.")
  boolean json;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "Write every request (replica, range, start, end) as CSV (.csv) or JSON lines.")
  Path trace;

  @Option(
      names = "--plot",
      paramLabel = "FILE.png",
      description = "Draw a timeline of which replica delivered what, when.")
  Path plot;

  @Option(
      names = "--journal",
      paramLabel = "FILE",
      description =
          "Transfer journal (default: $BRAID_JOURNAL or ${XDG_DATA_HOME:-~/.local/share}/braid/journal.jsonl).")
  Path journal;

  @Option(names = "--no-journal", description = "Do not record the transfers in the journal.")
  boolean noJournal;

  @Option(names = "--no-resume", description = "Ignore an existing control file and start over.")
  boolean noResume;

  @Override
  public boolean verbose() {
    return verbose;
  }

  @Override
  public boolean report(int code, String message) {
    if (json) {
      var out = spec.commandLine().getOut();
      out.println(GetPlan.errorJson(code, message));
      out.flush();
    }
    return false;
  }

  @Override
  public Integer call() throws IOException {
    StartupClock.mark("parsed");
    if (dataset.dir != null) {
      return new DatasetGet(this, dataset).run();
    }
    if (output == null) {
      throw new IllegalArgumentException("give -o FILE for one file or -d DIR for a dataset");
    }
    if (dataset.recursive
        || dataset.inputList != null
        || dataset.concurrency != 0
        || dataset.checksums != null) {
      throw new IllegalArgumentException("-r, -i, -j and --checksums need -d DIR (a dataset)");
    }
    boolean fromCatalog = source.fromCatalog(urls);
    if (dataset.clientCapacity != null && (!fromCatalog || discoveryTimeout == 0)) {
      throw new IllegalArgumentException(
          "--client-capacity is for the broker's forecasts and plan: give --metalink, --catalog"
              + " or -d DIR (and a --discovery-timeout above 0)");
    }
    List<URI> uris = new ArrayList<>();
    List<PredictedRate> predicted = new ArrayList<>();
    List<Checksum> sums = new ArrayList<>();
    for (String u : urls) {
      uris.add(Units.url(u));
    }
    CatalogInput in = fromCatalog ? source.read() : null;
    Path out = OutputTarget.resolve(output, fromCatalog ? in.file().name() : urls.get(0), force);
    PieceHashes pieces = null;
    if (fromCatalog) {
      pieces = fromCatalog(in, uris, predicted, sums);
    }
    for (String r : rates) {
      int eq = r.lastIndexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--rate must look like URL=RATE: '" + r + "'");
      }
      URI u = Units.url(r.substring(0, eq));
      if (!uris.contains(u)) {
        throw new IllegalArgumentException("--rate names a URL that is not a source: " + u);
      }
      predicted.add(new PredictedRate(u, Units.rate(r.substring(eq + 1))));
    }
    Scheme s = Scheme.parse(scheme, blocks);
    if (s.name().equals("history") && predicted.size() < Math.min(uris.size(), maxSources)) {
      throw new IllegalArgumentException(
          "--scheme history needs a --rate URL=RATE for every source");
    }
    for (String c : checksums) {
      sums.add(Checksum.parse(c));
    }
    SourceOptions.Builder so = sourceOptionsBuilder();
    Download.Builder b =
        Download.builder()
            .sources(uris)
            .output(out)
            .scheme(s)
            .maxSources(maxSources)
            .predictedRates(predicted)
            .checksums(sums)
            .pieces(pieces)
            .resume(!noResume)
            .journal(noJournal ? null : journal != null ? journal : Download.defaultJournal());
    transfer.apply(b);
    b.sourceOptions(so.build());
    long declared = fromCatalog ? in.file().size() : -1;
    if (declared >= 0) {
      b.expectedSize(declared);
    }
    var stdout = spec.commandLine().getOut();
    if (dryRun) {
      GetPlan plan =
          new GetPlan(out, s.name(), maxSources, uris, predicted, sums, pieces, declared);
      stdout.print(json ? plan.json() + System.lineSeparator() : plan.text());
      stdout.flush();
      return ExitCodes.OK;
    }
    DownloadReport r = run(b);
    StartupClock.at("transfer", r.start());
    StartupClock.at("lastbyte", r.start().plusNanos((long) (r.seconds() * 1e9)));
    if (trace != null) {
      Reports.writeTrace(r, trace);
    }
    if (plot != null) {
      Reports.writePlot(r, plot);
    }
    if (json || !quiet) {
      stdout.print(json ? Reports.json(r) + System.lineSeparator() : Reports.text(r));
      stdout.flush();
    }
    StartupClock.mark("reported");
    int code = ExitCodes.OK;
    var err = spec.commandLine().getErr();
    for (ReplicaReport rr : r.replicas()) {
      if (rr.dropped() != null) {
        err.println("braid: warning: replica dropped: " + rr.dropped());
        code = ExitCodes.REPLICA_FAILED;
      }
    }
    err.flush();
    return code;
  }

  /** The connection options: timeouts, connections per replica, credentials (a mixin). */
  SourceOptions sourceOptions() throws IOException {
    return sourceOptionsBuilder().build();
  }

  private SourceOptions.Builder sourceOptionsBuilder() throws IOException {
    SourceOptions.Builder so = connection.builder(transfer.authorizationHeader());
    transfer.headers(so);
    return so;
  }

  /** Runs the download with progress on a terminal and Ctrl-C cancelling it. */
  private DownloadReport run(Download.Builder b) throws IOException {
    ProgressBar bar = null;
    if (!quiet && !json && Terminal.stderrIsTerminal()) {
      bar = new ProgressBar(spec.commandLine().getErr(), Terminal.columns());
      b.progress(bar);
    }
    Download d = b.build();
    QuietLogs logs = QuietLogs.forCommand(verbose);
    CancelOnExit exit = new CancelOnExit(d::cancel);
    StartupClock.mark("setup");
    try {
      return d.run();
    } finally {
      exit.close();
      logs.close();
      if (bar != null) {
        bar.close();
      }
    }
  }

  /**
   * Fills the sources, predicted rates and checksums from a catalog entry: the broker ranks the
   * replicas (their information providers and this client's journal) and plans the co-allocation
   * set with each replica's predicted rate; the catalog's hashes become checksums.
   */
  /** Fills in replicas, rates and whole-file hashes; returns the piece hashes, or null. */
  private PieceHashes fromCatalog(
      CatalogInput in, List<URI> uris, List<PredictedRate> predicted, List<Checksum> sums) {
    String where =
        (source.metalink != null ? source.metalink.toString() : source.catalog.get(0))
            + ": file "
            + in.file().name()
            + ": ";
    PieceHashes pieces = CatalogChecks.checks(in.file(), where, sums, spec.commandLine().getErr());
    if (discoveryTimeout == 0) {
      for (var r : in.file().replicas()) {
        uris.add(r.uri());
      }
      return pieces;
    }
    if (!(discoveryTimeout > 0) || discoveryTimeout > 3600) {
      throw new IllegalArgumentException(
          "--discovery-timeout must be in [0, 3600] seconds: " + discoveryTimeout);
    }
    org.braid.broker.Request request =
        org.braid.broker.Request.builder(in.file()).requirements(requirements).build();
    org.braid.broker.Broker.Builder bb =
        org.braid.broker.Broker.builder()
            .timeout(Duration.ofMillis(Math.max(1, (long) (discoveryTimeout * 1000))))
            .providerPort(providerPort)
            .providers(in.providers())
            .maxSources(maxSources)
            .journal(noJournal ? null : journal != null ? journal : Download.defaultJournal());
    if (dataset.clientCapacity != null) {
      bb.clientCapacity(dataset.clientCapacityRate());
    }
    try (org.braid.broker.Broker broker = bb.build()) {
      org.braid.broker.Plan plan = broker.plan(request);
      uris.addAll(BrokerPlans.sources(plan));
      predicted.addAll(BrokerPlans.rates(plan));
      if (uris.isEmpty()) {
        StringBuilder why = new StringBuilder("no replica of " + in.file().name() + " is usable");
        for (var r : plan.ranking()) {
          if (!r.matched()) {
            why.append("; ").append(r.replica().uri()).append(": ").append(r.reason());
          }
        }
        throw new IllegalArgumentException(why.toString());
      }
    }
    return pieces;
  }

  static Duration seconds(double s, String option) {
    if (!(s > 0) || s > 1e6) {
      throw new IllegalArgumentException(option + " must be a positive number of seconds: " + s);
    }
    return Duration.ofNanos((long) (s * 1e9));
  }
}
