package org.braid.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.braid.cli.mirror.Mirror;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.Reports;
import org.braid.coalloc.Scheme;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code braid demo}: co-allocation against local throttled mirrors, next to the best one. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Start local HTTP mirrors of different speeds on 127.0.0.1, download a test file from all"
          + " of them with the chosen scheme, verify it, and compare with the best single mirror"
          + " measured in the same run. Needs nothing but Java.",
    })
public final class DemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--size",
      defaultValue = "64",
      paramLabel = "MIB",
      description = "Test file size in MiB (default: ${DEFAULT-VALUE}).")
  int sizeMib;

  @Option(
      names = "--rates",
      defaultValue = "128,64,32,16",
      split = ",",
      paramLabel = "MBIT",
      description = "Mirror rates in Mbit/s (default: ${DEFAULT-VALUE}).")
  List<Double> rates;

  @Option(
      names = "--scheme",
      defaultValue = "adaptive",
      paramLabel = "NAME",
      description = "Scheme for the co-allocated download (default: ${DEFAULT-VALUE}).")
  String scheme;

  @Option(
      names = "--blocks",
      defaultValue = "10",
      paramLabel = "K",
      description = "Block count for conservative and aggressive (default: ${DEFAULT-VALUE}).")
  int blocks;

  @Option(
      names = "--swap-after",
      paramLabel = "SECONDS",
      description =
          "Swap the rates of the fastest and the slowest mirror this long after each"
              + " download starts (default: no swap).")
  Double swapAfter;

  @Option(names = "--json", description = "Print the co-allocated download's report as JSON.")
  boolean json;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "Write the co-allocated download's trace.")
  Path trace;

  @Option(
      names = "--plot",
      paramLabel = "FILE.png",
      description = "Draw the co-allocated download's timeline.")
  Path plot;

  @Override
  public Integer call() throws IOException {
    if (sizeMib < 1 || sizeMib > 4096) {
      throw new IllegalArgumentException("--size must be in 1..4096 MiB: " + sizeMib);
    }
    if (rates.isEmpty() || rates.size() > 16 || rates.stream().anyMatch(r -> !(r > 0))) {
      throw new IllegalArgumentException("--rates must be 1 to 16 positive numbers: " + rates);
    }
    if (swapAfter != null && !(swapAfter >= 0)) {
      throw new IllegalArgumentException("--swap-after must not be negative: " + swapAfter);
    }
    Scheme s = Scheme.parse(scheme, blocks);
    PrintWriter out = spec.commandLine().getOut();
    Path dir = Files.createTempDirectory("braid-demo");
    List<Mirror> mirrors = new ArrayList<>();
    try {
      Path file = dir.resolve("demo.bin");
      String sha = writeTestFile(file, (long) sizeMib << 20);
      double sum = 0;
      for (double mbit : rates) {
        mirrors.add(Mirror.builder(file).rate(mbit * 1e6 / 8).start());
        sum += mbit;
      }
      List<URI> uris = new ArrayList<>();
      int best = 0;
      int worst = 0;
      for (int i = 0; i < mirrors.size(); i++) {
        uris.add(mirrors.get(i).uri());
        if (rates.get(i) > rates.get(best)) {
          best = i;
        }
        if (rates.get(i) < rates.get(worst)) {
          worst = i;
        }
      }
      Swapper swapper = new Swapper(mirrors, rates, best, worst, swapAfter);
      if (!json) {
        out.printf(
            Locale.ROOT,
            "braid demo: %d mirrors on 127.0.0.1 at %s Mbit/s (sum %.0f Mbit/s), %d MiB test file%n",
            mirrors.size(),
            rates.stream().map(r -> String.format(Locale.ROOT, "%.0f", r)).toList(),
            sum,
            sizeMib);
        if (swapAfter != null) {
          out.printf(
              Locale.ROOT,
              "the %.0f and %.0f Mbit/s mirrors swap rates %.1f s after each download starts%n",
              rates.get(best),
              rates.get(worst),
              swapAfter);
        }
        out.flush();
      }
      List<Checksum> check = List.of(new Checksum("sha256", sha));
      swapper.arm();
      DownloadReport single =
          Download.builder()
              .sources(List.of(uris.get(best)))
              .output(dir.resolve("single.bin"))
              .scheme(Scheme.singleBest())
              .checksums(check)
              .journal(null)
              .resume(false)
              .build()
              .run();
      swapper.arm();
      DownloadReport co =
          Download.builder()
              .sources(uris)
              .output(dir.resolve("coalloc.bin"))
              .scheme(s)
              .checksums(check)
              .journal(null)
              .resume(false)
              .build()
              .run();
      swapper.close();
      if (trace != null) {
        Reports.writeTrace(co, trace);
      }
      if (plot != null) {
        Reports.writePlot(co, plot);
      }
      if (json) {
        out.println(Reports.json(co));
      } else {
        out.print(Reports.text(co));
        out.printf(
            Locale.ROOT,
            "best single mirror (%s Mbit/s): %.2f s, %s%n",
            String.format(Locale.ROOT, "%.0f", rates.get(best)),
            single.seconds(),
            Reports.rate(single.throughput()));
        out.printf(
            Locale.ROOT,
            "co-allocated (%s):%s %.2f s, %s = %.1f%% of the sum of the mirror rates, %.2fx the"
                + " best single mirror%n",
            co.scheme(),
            " ".repeat(Math.max(0, 8 - co.scheme().length())),
            co.seconds(),
            Reports.rate(co.throughput()),
            co.throughput() * 8 / 1e6 / sum * 100,
            single.seconds() / co.seconds());
        out.println("verified: sha256 of both downloads matches the test file (" + sha + ")");
      }
      out.flush();
      return 0;
    } finally {
      for (Mirror m : mirrors) {
        m.close();
      }
      try (Stream<Path> w = Files.walk(dir)) {
        for (Path p : w.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** Resets the mirror rates and schedules the swap, once per download. */
  static final class Swapper implements AutoCloseable {
    private final List<Mirror> mirrors;
    private final List<Double> rates;
    private final int a;
    private final int b;
    private final Double after;
    private final java.util.concurrent.ScheduledExecutorService timer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "braid-demo-swap");
              t.setDaemon(true);
              return t;
            });
    private java.util.concurrent.ScheduledFuture<?> pending;

    Swapper(List<Mirror> mirrors, List<Double> rates, int a, int b, Double after) {
      this.mirrors = mirrors;
      this.rates = rates;
      this.a = a;
      this.b = b;
      this.after = after;
    }

    void arm() {
      if (pending != null) {
        pending.cancel(false);
      }
      for (int i = 0; i < mirrors.size(); i++) {
        mirrors.get(i).setRate(rates.get(i) * 1e6 / 8);
      }
      if (after != null) {
        pending =
            timer.schedule(
                () -> {
                  mirrors.get(a).setRate(rates.get(b) * 1e6 / 8);
                  mirrors.get(b).setRate(rates.get(a) * 1e6 / 8);
                },
                (long) (after * 1e9),
                java.util.concurrent.TimeUnit.NANOSECONDS);
      }
    }

    @Override
    public void close() {
      timer.shutdownNow();
    }
  }

  /** Writes deterministic pseudo-random content and returns its SHA-256. */
  static String writeTestFile(Path file, long size) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    SplittableRandom r = new SplittableRandom(20021122L);
    byte[] buf = new byte[1 << 20];
    try (OutputStream o = Files.newOutputStream(file)) {
      long left = size;
      while (left > 0) {
        r.nextBytes(buf);
        int n = (int) Math.min(buf.length, left);
        o.write(buf, 0, n);
        md.update(buf, 0, n);
        left -= n;
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
