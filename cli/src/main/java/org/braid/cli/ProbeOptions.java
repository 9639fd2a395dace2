package org.braid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.braid.infoprovider.stats.ProbeFiles;
import org.braid.predictors.PredictorName;
import org.braid.predictors.ProbeSeries;
import org.braid.predictors.Series;
import picocli.CommandLine.Option;

/**
 * The probe series options of {@code braid predict}: {@code --network FILE}, {@code --disk FILE}.
 */
final class ProbeOptions {

  @Option(
      names = "--network",
      paramLabel = "FILE",
      description = {
        "Network probe series (e.g. the provider's 64 KiB probe bandwidth to the peer) for the",
        "regression models: 'time,value' lines (Unix seconds or ISO-8601) or the provider's",
        "/v1/series/NAME answer saved to a file; gzip allowed."
      })
  Path network;

  @Option(
      names = "--disk",
      paramLabel = "FILE",
      description = "Disk load series of the server (utilisation %% or MB/s), same formats.")
  Path disk;

  /** Reads the probe series given; absent ones are empty. */
  ProbeSeries read() throws IOException {
    return new ProbeSeries(read(network, "network"), read(disk, "disk"));
  }

  private static Series read(Path file, String what) throws IOException {
    if (file == null) {
      return Series.empty(what);
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no such file: " + file);
    }
    Series s = ProbeFiles.read(file);
    if (s.isEmpty()) {
      throw new IllegalArgumentException(file + ": no samples in the " + what + " series");
    }
    return s;
  }

  /** Checks that a model has the probe series it reads, naming the option that is missing. */
  static void require(PredictorName name, ProbeSeries probes) {
    if (name.needsNetwork() && probes.network().isEmpty()) {
      throw new IllegalArgumentException(name + " needs a network probe series: --network FILE");
    }
    if (name.needsDisk() && probes.disk().isEmpty()) {
      throw new IllegalArgumentException(name + " needs a disk load series: --disk FILE");
    }
  }
}
