package org.braid.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code braid provider}: the site information provider (see docs/provider.md). */
@Command(
    name = "provider",
    mixinStandardHelpOptions = true,
    description = {
      "Turn GridFTP and HTTP transfer logs, network and disk probes into published statistics.",
      "See docs/provider.md for log formats, configuration and deployment."
    },
    subcommands = {
      ProviderStatsCommand.class,
      ProviderLdifCommand.class,
      ProviderServeCommand.class,
      CommandLine.HelpCommand.class,
    })
final class ProviderCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
