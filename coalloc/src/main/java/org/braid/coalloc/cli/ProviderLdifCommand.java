package org.braid.coalloc.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.braid.infoprovider.Provider;
import org.braid.infoprovider.ProviderConfig;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.publish.Ldif;
import org.braid.infoprovider.publish.Snapshot;
import org.braid.infoprovider.stats.ForecastInputs;
import org.braid.infoprovider.stats.StatsAccumulator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid provider ldif}: the statistics as LDIF (paper 003, Figure 3). */
@Command(
    name = "ldif",
    mixinStandardHelpOptions = true,
    description = {
      "Print the statistics as LDIF (paper 003, Figure 3).",
      "For a BDII or GRIS provider script. Reads the daemon's database (--config) or log files",
      "(--format with LOG files). Bandwidths are decimal kilobytes per second (K)."
    })
final class ProviderLdifCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The daemon's provider.yaml: read its database.")
  Path config;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Log format of LOG files: gridftp, nginx, apache, braid.")
  String format;

  @Option(
      names = "--hostname",
      paramLabel = "HOST",
      description = "Host name to publish (default: from --config, else this machine).")
  String hostname;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "Server URL to publish, e.g. gsiftp://host:2811.")
  String url;

  @Parameters(arity = "0..*", paramLabel = "LOG", description = "Log files (with --format).")
  List<Path> logs = List.of();

  @Override
  public Integer call() throws IOException {
    Snapshot snap;
    if (config != null) {
      if (format != null || !logs.isEmpty()) {
        throw new IllegalArgumentException(
            "give either --config or --format with LOG files, not both");
      }
      ProviderConfig c = ProviderConfig.load(config);
      try (Provider p = Provider.fromConfig(c, InstantSource.system())) {
        snap = p.computeFromStore();
      }
    } else {
      if (format == null || logs.isEmpty()) {
        throw new IllegalArgumentException("give --config FILE, or --format FORMAT and LOG files");
      }
      ParseReport report = new ParseReport();
      StatsAccumulator acc = ProviderStatsCommand.readLogs(LogFormat.parse(format), logs, report);
      String host = hostname != null ? hostname : localHostName();
      snap =
          new Snapshot(
              java.time.Instant.now(),
              host,
              url == null ? "" : url,
              acc.result(ForecastInputs.univariate(java.time.Instant.now())),
              report.rejected() == 0 ? Map.of() : Map.of("logs", report.rejectedByReason()),
              Map.of(),
              Map.of(),
              Map.of());
    }
    if (hostname != null || url != null) {
      snap =
          snap.withHost(
              hostname != null ? hostname : snap.hostname(), url != null ? url : snap.url());
    }
    spec.commandLine().getOut().print(Ldif.render(snap));
    return 0;
  }

  private static String localHostName() {
    try {
      return java.net.InetAddress.getLocalHost().getCanonicalHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }
}
