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
import org.braid.provider.publish.Glue2Ldif;
import org.braid.provider.publish.LdifLayout;
import org.braid.provider.publish.Snapshot;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid provider ldif}: the statistics as LDIF for an LDAP directory (a BDII). */
@Command(
    name = "ldif",
    mixinStandardHelpOptions = true,
    description = {
      "Print the statistics as LDIF for an LDAP directory (a BDII's provider script). Reads the"
          + " daemon's database (--config) or log files (--format with LOG files).",
      "",
      "Layout glue2 (default): a GLUE 2.0 storage service under GLUE2GroupID=resource,o=glue with"
          + " its endpoints and shares, and the storage ads of /v1/ads in GLUE2Extension entries;"
          + " needs only the GLUE 2.0 schema. braid rank --bdii reads them.",
      "",
      "Layout figure3: paper 003's Figure 3, bandwidths in decimal kilobytes per second (K);"
          + " needs Braid's schema (braid-figure3.schema or .ldif, in /etc/ldap/schema/ from the"
          + " Debian package, in ldap/ of the tarball); load with ldapadd -c."
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

  @Option(
      names = "--layout",
      paramLabel = "LAYOUT",
      defaultValue = "glue2",
      description = "glue2 or figure3. Default: ${DEFAULT-VALUE}.")
  String layout;

  @Option(
      names = "--site",
      paramLabel = "NAME",
      description =
          "glue2: the GLUE 2.0 site (admin domain) of the service. Default: the host name's domain.")
  String site;

  @Option(
      names = "--base",
      paramLabel = "DN",
      defaultValue = Glue2Ldif.DEFAULT_BASE,
      description = "glue2: the DN the service goes under. Default: ${DEFAULT-VALUE}.")
  String base;

  @Parameters(arity = "0..*", paramLabel = "LOG", description = "Log files (with --format).")
  List<Path> logs = List.of();

  @Override
  public Integer call() throws IOException {
    LdifLayout l = LdifLayout.parse(layout);
    Snapshot snap;
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
        snap = p.computeFromStore();
      }
    } else {
      if (format == null || logs.isEmpty()) {
        throw new IllegalArgumentException("give --config FILE, or --format FORMAT and LOG files");
      }
      Instant now = Instant.now();
      snap =
          Provider.snapshotOf(
              TransferLogs.forecasts(LogFormat.parse(format), logs, now),
              hostname != null ? hostname : localHostName(),
              url == null ? "" : url,
              now);
    }
    spec.commandLine().getOut().print(l.render(snap, site, base));
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
