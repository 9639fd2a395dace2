package org.braid.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferLogs;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.wire.StatsJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid provider stats}: one-shot statistics from log files, no daemon, no database. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Print transfer statistics per (volume, peer, operation, size class) from log files.",
      "Bandwidths are bytes per second; size classes 10M (<50 MB), 100M (50-250 MB),",
      "500M (250-750 MB), 1G (>750 MB). Malformed lines are counted, never fatal.",
      "Gzip-compressed logs are read as such."
    })
final class ProviderStatsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--format",
      required = true,
      paramLabel = "FORMAT",
      description = "Log format: gridftp, nginx, apache or braid (the client journal).")
  String format;

  @Option(names = "--json", description = "Print a JSON array, one object per group.")
  boolean json;

  @Parameters(arity = "1..*", paramLabel = "LOG", description = "Log files to read.")
  List<Path> logs;

  @Override
  public Integer call() throws IOException {
    TransferLogs.Statistics read = TransferLogs.statistics(LogFormat.parse(format), logs);
    ParseReport report = read.report();
    List<TransferStats> stats =
        read.stats().stream().filter(s -> s.key().sizeClass() != SizeClass.ALL).toList();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ArrayNode a = StatsJson.MAPPER.createArrayNode();
      for (TransferStats s : stats) {
        ObjectNode o = StatsJson.of(s);
        o.put("rejectedLines", report.rejected());
        a.add(o);
      }
      out.println(StatsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(a));
    } else {
      printTable(out, stats);
      out.printf(
          Locale.ROOT,
          "lines %d, transfers %d, skipped %d, rejected %d%n",
          report.lines(),
          report.records(),
          report.skipped(),
          report.rejected());
      for (Map.Entry<String, Long> e : report.rejectedByReason().entrySet()) {
        out.printf(Locale.ROOT, "  rejected: %s: %d%n", e.getKey(), e.getValue());
      }
    }
    PrintWriter err = spec.commandLine().getErr();
    for (ParseReport.Rejection r : report.examples()) {
      err.println("braid: rejected " + r);
    }
    return 0;
  }

  private static void printTable(PrintWriter out, List<TransferStats> stats) {
    out.printf(
        Locale.ROOT,
        "%-12s %-20s %-5s %-5s %7s %14s %14s %14s %14s%n",
        "VOLUME",
        "PEER",
        "OP",
        "SIZE",
        "COUNT",
        "BYTES",
        "MIN B/s",
        "MAX B/s",
        "MEAN B/s");
    for (TransferStats s : stats) {
      out.printf(
          Locale.ROOT,
          "%-12s %-20s %-5s %-5s %7d %14d %14.0f %14.0f %14.0f%n",
          s.key().volume(),
          s.key().peer(),
          s.key().operation().label(),
          s.key().sizeClass().label(),
          s.count(),
          s.bytes(),
          s.minBandwidth(),
          s.maxBandwidth(),
          s.meanBandwidth());
    }
  }
}
