package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.junit.jupiter.api.Test;

/** The journal line the downloader writes is the transfer the provider reads. */
class JournalLineRoundTripTest {

  @Test
  void toJsonLine_isExactlyTheDocumentedShape() {
    JournalLine f =
        new JournalLine(
            "d1",
            "http://m1:80/data/a.bin",
            "m1:80",
            "client.example",
            "/data/a.bin",
            1_048_576,
            1_048_576,
            4_194_304,
            Instant.parse("2026-11-22T04:00:00Z"),
            Instant.parse("2026-11-22T04:00:02Z"),
            1,
            "http",
            "ok");
    assertEquals(
        JournalParserTest.FLOW
            .replace("04:00:00Z", "04:00:00.000Z")
            .replace("04:00:02Z", "04:00:02.000Z"),
        f.toLine());
  }

  @Test
  void badFlow_rejectedWithTheParsersRule() {
    Instant t = Instant.parse("2026-11-22T04:00:00Z");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new JournalLine("d", "u", "s", "p", "/x", 10, 5, 12, t, t, 1, "http", "ok"));
    assertEquals("range outside the file: offset 10 bytes 5 fileSize 12", e.getMessage());
  }

  /** Whatever the downloader writes, the provider reads back the same transfer. */
  @Property(tries = 300)
  void writtenFlow_parsesBackToTheSameTransfer(
      @ForAll @StringLength(min = 1, max = 40) String peer,
      @ForAll @StringLength(min = 1, max = 60) String path,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long fileSize,
      @ForAll @IntRange(min = 0, max = 1000) int offsetPermille,
      @ForAll @IntRange(min = 0, max = 1000) int bytesPermille,
      @ForAll @LongRange(min = 0, max = 10_000_000_000L) long micros,
      @ForAll boolean ok)
      throws Exception {
    long offset = fileSize * offsetPermille / 1000;
    long bytes = (fileSize - offset) * bytesPermille / 1000;
    Instant start = Instant.parse("2026-11-22T00:00:00Z");
    Instant end = start.plusNanos(micros * 1000);
    JournalLine f =
        new JournalLine(
            "dl-" + micros,
            "http://m:80" + path,
            "m:80",
            peer,
            path,
            offset,
            bytes,
            fileSize,
            start,
            end,
            1,
            "http",
            ok ? "ok" : "error: reset \"by\" peer");
    String line = f.toLine();
    try {
      TransferRecord r = LogFormat.BRAID.parser().parse(line);
      assertEquals(peer, r.peer());
      assertEquals(path, r.path());
      assertEquals(bytes, r.size());
      assertEquals(start, r.start());
      assertEquals(end.truncatedTo(ChronoUnit.MILLIS), r.end());
      assertEquals(ok, r.succeeded());
    } catch (MalformedLineException e) {
      // Control characters in generated names are rejected as binary data: that is the only
      // reason a written flow may be refused.
      assertEquals("binary data", e.reason(), line);
    }
  }

  /** Whatever version 2 line the downloader writes, the provider reads its delivery back. */
  @Property(tries = 300)
  void writtenDelivery_parsesBackToTheSameTransfer(
      @ForAll @StringLength(min = 1, max = 40) String peer,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long received,
      @ForAll @LongRange(min = 1, max = 10_000_000_000L) long millis,
      @ForAll @IntRange(min = 1, max = 1000) int busyPermille)
      throws Exception {
    Instant start = Instant.parse("2026-11-22T00:00:00Z");
    long busy = Math.max(1, millis * busyPermille / 1000);
    JournalLine f =
        JournalLine.delivery("d", "http://m:80/f", "m:80", peer, "/f", "http")
            .bytes(received, received / 2, received)
            .time(start, start.plusMillis(millis), busy)
            .requests(4, 0, 2)
            .sharing(busy / 3, 3, 5)
            .build();
    String line = f.toLine();
    try {
      TransferRecord r = LogFormat.BRAID.parser().parse(line);
      assertEquals(f, r.journal());
      assertEquals(received, r.size());
      assertEquals(start.plusMillis(millis), r.end());
      assertEquals(received * 1000.0 / busy, r.bandwidth(), 1e-6 * r.bandwidth());
    } catch (MalformedLineException e) {
      assertEquals("binary data", e.reason(), line);
    }
  }
}
