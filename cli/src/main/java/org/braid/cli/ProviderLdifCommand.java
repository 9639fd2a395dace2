package org.braid.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Callable;
import org.braid.infoprovider.TransferLogs;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
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
    String ldif;
    if (config != null) {
      if (format != null || !logs.isEmpty()) {
        throw new IllegalArgumentException(
            "give either --config or --format with LOG files, not both");
      }
      ProviderConfig c = ProviderConfig.load(config);
      if (hostname != null || url != null) {
        c = c.withPublished(hostname, url);
      }
      try (Provider p = Provider.fromConfig(c, InstantSource.system())) {
        ldif = p.ldif();
      }
    } else {
      if (format == null || logs.isEmpty()) {
        throw new IllegalArgumentException("give --config FILE, or --format FORMAT and LOG files");
      }
      Instant now = Instant.now();
      ldif =
          Provider.ldif(
              TransferLogs.forecasts(LogFormat.parse(format), logs, now),
              hostname != null ? hostname : localHostName(),
              url == null ? "" : url,
              now);
    }
    spec.commandLine().getOut().print(ldif);
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
