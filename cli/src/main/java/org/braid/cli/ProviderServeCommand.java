package org.braid.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code braid provider serve}: the daemon. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run the provider daemon.",
      "Reads the configured logs, runs the probes, keeps the statistics in the database and",
      "serves /v1/ads, /v1/stats, /v1/series, /metrics and /healthz.",
      "Stops cleanly on SIGTERM or SIGINT. See docs/provider.md for the configuration."
    })
final class ProviderServeCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "provider.yaml")
  Path config;

  @Override
  public Integer call() throws IOException, InterruptedException {
    ProviderConfig c = ProviderConfig.load(config);
    Provider provider = Provider.fromConfig(c, InstantSource.system());
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              try {
                provider.close();
              } catch (IOException | RuntimeException e) {
                spec.commandLine().getErr().println("braid: while stopping: " + e.getMessage());
              }
              spec.commandLine().getOut().println("braid provider: stopped");
              spec.commandLine().getOut().flush();
              stopped.countDown();
            },
            "braid-provider-shutdown");
    try {
      provider.start();
    } catch (IOException | RuntimeException e) {
      provider.close();
      throw e;
    }
    Runtime.getRuntime().addShutdownHook(hook);
    spec.commandLine()
        .getOut()
        .println(
            "braid provider: serving on http://"
                + c.http().bind()
                + ":"
                + provider.httpPort()
                + " ("
                + c.logs().size()
                + " logs, "
                + provider.probes().size()
                + " probes, database "
                + c.database()
                + ")");
    spec.commandLine().getOut().flush();
    stopped.await();
    return 0;
  }
}
