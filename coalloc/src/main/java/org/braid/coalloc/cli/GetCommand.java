package org.braid.coalloc.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.PredictedRate;
import org.braid.coalloc.Reports;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code braid get}: download one file from several replicas at once. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Download one file from several replicas at once, verified and resumable.",
      "The file is written to OUT.part and renamed to OUT when complete and verified;"
          + " run the same command again after an interruption to resume.",
    })
public final class GetCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "URL", description = "Replica URLs (http, https, file, or a local path), best first.")
  List<String> urls;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Output file.")
  Path output;

  @Option(names = "--scheme", defaultValue = "adaptive", paramLabel = "NAME",
      description = "single, brute, history, conservative, aggressive or adaptive (default: ${DEFAULT-VALUE}).")
  String scheme;

  @Option(names = "--blocks", defaultValue = "10", paramLabel = "K",
      description = "Block count k for conservative and aggressive (default: ${DEFAULT-VALUE}).")
  int blocks;

  @Option(names = "--max-sources", defaultValue = "8", paramLabel = "N",
      description = "Use at most N replicas (default: ${DEFAULT-VALUE}).")
  int maxSources;

  @Option(names = "--connections-per-source", defaultValue = "1", paramLabel = "N",
      description = "Connections to each replica, 1..16 (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(names = "--checksum", paramLabel = "ALGO:HEX",
      description = "Expected whole-file digest (sha256, sha1, md5, adler32); repeatable.")
  List<String> checksums = new ArrayList<>();

  @Option(names = "--rate", paramLabel = "URL=RATE",
      description = "Predicted rate of a replica, e.g. http://a/f=80Mbit/s; repeatable."
          + " Needed by --scheme history; seeds the adaptive scheme.")
  List<String> rates = new ArrayList<>();

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Option(names = "--trace", paramLabel = "FILE", description = "Write every request (replica, range, start, end) as CSV (.csv) or JSON lines.")
  Path trace;

  @Option(names = "--plot", paramLabel = "FILE.png", description = "Draw a timeline of which replica delivered what, when.")
  Path plot;

  @Option(names = "--journal", paramLabel = "FILE",
      description = "Transfer journal (default: $BRAID_JOURNAL or ${XDG_DATA_HOME:-~/.local/share}/braid/journal.jsonl).")
  Path journal;

  @Option(names = "--no-journal", description = "Do not record the transfers in the journal.")
  boolean noJournal;

  @Option(names = "--no-resume", description = "Ignore an existing control file and start over.")
  boolean noResume;

  @Option(names = "--stall-timeout", defaultValue = "30", paramLabel = "SECONDS",
      description = "Abandon a request after this long without data (default: ${DEFAULT-VALUE}).")
  double stallTimeout;

  @Option(names = "--connect-timeout", defaultValue = "10", paramLabel = "SECONDS",
      description = "Time allowed to connect (default: ${DEFAULT-VALUE}).")
  double connectTimeout;

  @Option(names = "--bearer-token-file", paramLabel = "FILE",
      description = "Send the token in FILE as 'Authorization: Bearer' (or set BRAID_BEARER_TOKEN).")
  Path tokenFile;

  @Option(names = "--client-cert", paramLabel = "FILE.p12",
      description = "Client certificate and key (PKCS#12); password from BRAID_CLIENT_CERT_PASSWORD.")
  Path clientCert;

  @Option(names = "--ca-bundle", paramLabel = "FILE.pem", description = "Trust these CA certificates instead of the system's.")
  Path caBundle;

  @Override
  public Integer call() throws IOException {
    List<URI> uris = new ArrayList<>();
    for (String u : urls) {
      uris.add(Units.url(u));
    }
    List<PredictedRate> predicted = new ArrayList<>();
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
    List<Checksum> sums = new ArrayList<>();
    for (String c : checksums) {
      sums.add(Checksum.parse(c));
    }
    SourceOptions.Builder so =
        SourceOptions.builder()
            .connectionsPerSource(connections)
            .stallTimeout(seconds(stallTimeout, "--stall-timeout"))
            .connectTimeout(seconds(connectTimeout, "--connect-timeout"));
    String token = System.getenv("BRAID_BEARER_TOKEN");
    if (tokenFile != null) {
      token = Files.readString(tokenFile).trim();
    }
    if (token != null && !token.isBlank()) {
      so.bearerToken(token);
    }
    if (clientCert != null) {
      so.clientCertificate(clientCert, System.getenv("BRAID_CLIENT_CERT_PASSWORD"));
    }
    if (caBundle != null) {
      so.caBundle(caBundle);
    }
    Download.Builder b =
        Download.builder()
            .sources(uris)
            .output(output)
            .scheme(s)
            .maxSources(maxSources)
            .predictedRates(predicted)
            .checksums(sums)
            .sourceOptions(so.build())
            .resume(!noResume)
            .journal(noJournal ? null : journal != null ? journal : Download.defaultJournal());
    ProgressBar bar = null;
    if (System.console() != null && !json) {
      bar = new ProgressBar(spec.commandLine().getErr());
      b.progress(bar);
    }
    Download d = b.build();
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              d.cancel();
              try {
                finished.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Runtime.getRuntime().addShutdownHook(hook);
    DownloadReport r;
    try {
      r = d.run();
    } finally {
      finished.countDown();
      if (bar != null) {
        bar.finish();
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already
      }
    }
    if (trace != null) {
      Reports.writeTrace(r, trace);
    }
    if (plot != null) {
      Reports.writePlot(r, plot);
    }
    var out = spec.commandLine().getOut();
    out.print(json ? Reports.json(r) + System.lineSeparator() : Reports.text(r));
    out.flush();
    return 0;
  }

  static Duration seconds(double s, String option) {
    if (!(s > 0) || s > 1e6) {
      throw new IllegalArgumentException(option + " must be a positive number of seconds: " + s);
    }
    return Duration.ofNanos((long) (s * 1e9));
  }
}
