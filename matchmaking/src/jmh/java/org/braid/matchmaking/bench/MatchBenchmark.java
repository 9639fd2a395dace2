package org.braid.matchmaking.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.braid.matchmaking.ClassAd;
import org.braid.matchmaking.ClassAdParseException;
import org.braid.matchmaking.ClassAds;
import org.braid.matchmaking.Matchmaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Matching and ranking 10,000 storage ads against one replica request (paper 003, section 2.3),
 * and single-expression evaluation throughput. Run on demand: see docs/classads.md.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1"})
@Threads(1)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
public class MatchBenchmark {

  /** The request: the paper's, in strict syntax. */
  public static final String REQUEST =
      "[ hostname = \"comet.xyz.com\"; reqRDBandwidth = 5000000; reqSpace = 10000000000;"
          + " Rank = other.AvgRDBandwidth;"
          + " Requirements = other.AvgRDBandwidth > reqRDBandwidth"
          + " && other.availableSpace >= my.reqSpace && other.volume != \"/dev/null\" ]";

  /** The expression timed for evaluations per second (the same text the Python script uses). */
  public static final String EVAL_AD =
      "[ a = 5; b = \"Disk\"; l = { 1, 2, 3 }; c = [ x = 2.5 ];"
          + " r = a * 2 + c.x > 10 && strcat(b, \"X\") == \"diskx\" || member(2, l) ]";

  ClassAd request;
  List<ClassAd> storage;
  Matchmaker matchmaker;
  ClassAd evalAd;

  /** The storage ads: seeded, so every run ranks the same 10,000 ads. */
  public static List<ClassAd> storageAds(int n) throws ClassAdParseException {
    Random rnd = new Random(42);
    List<ClassAd> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(
          ClassAds.parse(
              "[ hostname = \"store" + i + ".example.org\"; volume = \"/dev/sandbox" + (i % 7)
                  + "\"; availableSpace = " + (long) (rnd.nextDouble() * 1e11)
                  + "; AvgRDBandwidth = " + (1e6 + rnd.nextDouble() * 1e7)
                  + "; Requirements = other.reqSpace <= availableSpace ]"));
    }
    return out;
  }

  @Setup
  public void setup() throws ClassAdParseException {
    request = ClassAds.parse(REQUEST);
    storage = storageAds(10_000);
    matchmaker = Matchmaker.of(request);
    evalAd = ClassAds.parse(EVAL_AD);
  }

  /** Match and rank 10,000 storage ads against the request; reports ms per ranking. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public Matchmaker.Ranking rank10k() {
    return matchmaker.rank(storage);
  }

  /** Evaluate attribute r of EVAL_AD; reports evaluations per second. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public Object evaluate() {
    return evalAd.evaluate("r");
  }
}
