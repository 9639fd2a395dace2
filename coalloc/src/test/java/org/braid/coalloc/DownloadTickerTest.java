package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A download reads time only from its ticker: with one that moves exactly 10 ms per reading, every
 * event time, the transfer time and the progress' elapsed time are whole multiples of 10 ms (with
 * {@link System#nanoTime()} almost none would be).
 */
class DownloadTickerTest {
  /** Ticker time per reading: 10 ms, so that the progress (every 200 ms) is reported. */
  static final long STEP = 10_000_000;

  @TempDir Path dir;

  @Test
  void download_injectedTicker_timesEventsReportAndProgress() throws Exception {
    Path src = TestFiles.random(dir, "t.bin", 3_000_000, 3);
    AtomicLong nanos = new AtomicLong(7);
    List<Progress> progress = new CopyOnWriteArrayList<>();
    try (Mirror a = Mirror.builder(src).rate(2e6).start();
        Mirror b = Mirror.builder(src).rate(2e6).start()) {
      Path out = dir.resolve("out");
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), b.uri()))
              .output(out)
              .journal(null)
              .ticker(() -> nanos.addAndGet(STEP))
              .progress(progress::add)
              .build()
              .run();

      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertFalse(r.events().isEmpty());
      for (BlockEvent e : r.events()) {
        assertEquals(0, e.startNanos() % STEP, e.toString());
        assertEquals(0, e.endNanos() % STEP, e.toString());
      }
      assertEquals(0, Math.round(r.seconds() * 1e9) % STEP, "seconds " + r.seconds());
      assertFalse(progress.isEmpty(), "no progress reported");
      for (Progress p : progress) {
        assertEquals(0, Math.round(p.elapsedSeconds() * 1e9) % STEP, p.toString());
      }
    }
  }
}
