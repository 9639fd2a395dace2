package org.braid.infoprovider.bench;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.LogTailer;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.store.Store;

/**
 * How fast the daemon imports a log into its SQLite store (parse, line key, insert, position), e.g.
 * on first start with a long history. Usage: {@code ImportHarness [LINES]} (default 250000).
 */
public final class ImportHarness {

  private ImportHarness() {}

  public static void main(String[] args) throws Exception {
    int lines = args.length > 0 ? Integer.parseInt(args[0]) : 250_000;
    Path dir = Files.createTempDirectory("braid-import");
    try {
      Path log = dir.resolve("transfer.log");
      try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
        for (int k = 0; k < lines; k++) {
          w.write(GridFtpParseBenchmark.line(k));
          w.write('\n');
        }
      }
      try (Store store =
          Store.open(
              dir.resolve("p.db"), InstantSource.fixed(TestLines.NOW), Store.DEFAULT_RETENTION)) {
        LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
        long t0 = System.nanoTime();
        ParseReport r = t.poll();
        double first = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        t.poll();
        double second = (System.nanoTime() - t1) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "lines=%d stored=%d first import %.2f s (%.0f lines/s); next poll with nothing new %.4f s; db %d MB%n",
            r.lines(),
            store.transferCount(),
            first,
            r.lines() / first,
            second,
            Files.size(dir.resolve("p.db")) / 1_000_000);
      }
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
