package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.braid.coalloc.journal.JournalLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamTunerTest {
  static final long SECOND = 1_000_000_000L;

  /** Runs ranges of one second at the rate {@code path} gives for each count until settled. */
  private static List<Integer> climb(StreamTuner t, IntToDoubleFunction path) {
    List<Integer> tried = new ArrayList<>();
    for (int i = 0; i < 40 && !t.settled(); i++) {
      int n = t.streams();
      tried.add(n);
      t.record(n, (long) path.applyAsDouble(n), SECOND);
    }
    return tried;
  }

  @Test
  void record_rateGrowsToEightThenFlat_settlesOnEight() {
    Map<Integer, Double> mb = Map.of(1, 5.0, 2, 10.0, 4, 18.0, 8, 25.0, 16, 25.5);
    StreamTuner t = new StreamTuner(0);
    List<Integer> tried = climb(t, n -> mb.get(n) * 1e6);
    assertEquals(List.of(2, 2, 4, 4, 8, 8, 16, 16), tried);
    assertTrue(t.settled());
    assertEquals(8, t.streams()); // 16 is within 5% of 8: fewer streams win
  }

  @Test
  void record_moreStreamsHurt_measuresOneAndKeepsTheBest() {
    Map<Integer, Double> mb = Map.of(1, 9.9, 2, 10.0, 4, 8.0);
    StreamTuner t = new StreamTuner(0);
    List<Integer> tried = climb(t, n -> mb.get(n) * 1e6);
    assertEquals(List.of(2, 2, 4, 4, 1, 1), tried);
    assertEquals(1, t.streams()); // one is as good as two (within 5%)
  }

  @Test
  void record_shortRanges_areNotMeasurements() {
    StreamTuner t = new StreamTuner(0);
    t.roundTrip(50_000_000); // 50 ms: a range must last 0.5 s
    for (int i = 0; i < 10; i++) {
      t.record(2, 1_000_000, 400_000_000);
      t.record(2, 1_000, 100_000_000);
    }
    assertEquals(2, t.streams());
    assertFalse(t.settled());
  }

  @Test
  void fixedCount_isAlwaysAnswered() {
    StreamTuner t = new StreamTuner(6);
    t.record(6, 1, SECOND);
    assertEquals(6, t.streams());
    assertTrue(t.settled());
    assertThrows(IllegalArgumentException.class, () -> new StreamTuner(17));
  }

  @Test
  void learn_historyOfAllCounts_settlesWithoutMeasuringAgain() {
    StreamTuner t = new StreamTuner(0);
    for (int n : new int[] {1, 2, 4, 8, 16}) {
      for (int i = 0; i < 3; i++) {
        t.learn(n, (long) (n == 4 ? 40e6 : 20e6), SECOND);
      }
    }
    assertTrue(t.settled());
    assertEquals(4, t.streams());
  }

  @Test
  void seed_journalHistoryOfThisServer_choosesItsBestCount(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("journal.jsonl");
    StringBuilder b = new StringBuilder("not json\n");
    Instant t0 = Instant.parse("2026-11-20T00:00:00Z");
    double[] mbps = {0, 0, 10, 0, 30, 0, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 55};
    for (int n : new int[] {2, 4, 8, 16}) {
      for (int i = 0; i < 2; i++) {
        b.append(line("gsiftp://a.example:2811/f", "a.example:2811", n, mbps[n], t0)).append('\n');
        // another server's history says otherwise: not used for this one
        b.append(line("gsiftp://b.example:2811/f", "b.example:2811", n, 100 - mbps[n], t0))
            .append('\n');
      }
    }
    Files.writeString(journal, b);
    GridFtpRangeSource a =
        new GridFtpRangeSource(URI.create("gsiftp://a.example/f"), SourceOptions.DEFAULT);
    GridFtpRangeSource b2 =
        new GridFtpRangeSource(URI.create("gsiftp://b.example/f"), SourceOptions.DEFAULT);
    StreamHistory.seed("t", journal, List.of(a, b2));
    assertEquals(8, a.tuner().streams());
    assertTrue(a.tuner().settled());
    assertEquals(1, b2.tuner().streams()); // two was best, more did not pay: one is measured next
    assertFalse(b2.tuner().settled());
  }

  private static String line(String url, String server, int streams, double mbps, Instant t0) {
    return new JournalLine(
            "d",
            url,
            server,
            "client",
            "/f",
            0,
            (long) (mbps * 2e6),
            1 << 30,
            t0,
            t0.plusSeconds(2),
            streams,
            "gsiftp",
            "ok")
        .toLine();
  }
}
