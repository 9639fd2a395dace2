package org.braid.infoprovider.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.LogFiles;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.LogParser;
import org.braid.infoprovider.logs.MalformedLineException;
import org.braid.infoprovider.logs.ParseReport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * GridFTP transfer-log parsing speed on one thread: {@code parseLine} (lines already in memory) and
 * {@code readFile} (a whole file from disk: reading, splitting, decoding, parsing; run with a small
 * heap to show memory stays flat as the file grows).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class GridFtpParseBenchmark {

  /** Lines in memory, varied like a real log (peers, sizes, types, times). */
  @State(Scope.Thread)
  public static class Lines {
    String[] lines;
    int i;
    final LogParser parser = LogFormat.GRIDFTP.parser();

    @Setup
    public void setUp() {
      lines = new String[4096];
      for (int k = 0; k < lines.length; k++) {
        lines[k] = line(k);
      }
    }
  }

  /** A log file on disk. */
  @State(Scope.Benchmark)
  public static class LogFile {
    @Param({"250000", "1000000"})
    int lines;

    Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      file = Files.createTempFile("braid-bench-gridftp", ".log");
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (int k = 0; k < lines; k++) {
          w.write(line(k));
          w.write('\n');
        }
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      Files.deleteIfExists(file);
    }
  }

  public static String line(int k) {
    String peer = "10.0." + (k % 7) + "." + (k % 13 + 1);
    long bytes = 1_000_000L + (k * 7919L) % 900_000_000L;
    String type = k % 5 == 0 ? "STOR" : k % 3 == 0 ? "ERET" : "RETR";
    return TestLines.gridftp(k % 86_000, peer, bytes, 100 + k % 5000, type);
  }

  /** One line per operation: ops/s = lines/s. */
  @Benchmark
  public TransferRecord parseLine(Lines s) throws MalformedLineException {
    String l = s.lines[s.i];
    s.i = (s.i + 1) & (s.lines.length - 1);
    return s.parser.parse(l);
  }

  /** One whole file per operation: lines/s = ops/s times the lines parameter. */
  @Benchmark
  public long readFile(LogFile f, Blackhole bh) throws IOException {
    ParseReport report = new ParseReport();
    LogFiles.read(f.file, LogFormat.GRIDFTP, bh::consume, report);
    if (report.records() != f.lines) {
      throw new IllegalStateException("parsed " + report.records() + " of " + f.lines);
    }
    return report.records();
  }
}
