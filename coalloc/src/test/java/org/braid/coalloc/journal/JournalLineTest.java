package org.braid.coalloc.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class JournalLineTest {

  private static final Instant T = Instant.parse("2026-11-22T04:00:00Z");

  private static JournalLine line(long offset, long bytes, long size, String result) {
    return new JournalLine(
        "d1",
        "http://m1:80/data/a.bin",
        "m1:80",
        "client.example",
        "/data/a.bin",
        offset,
        bytes,
        size,
        T,
        T.plusMillis(2000),
        1,
        "http",
        result);
  }

  @Test
  void toLine_isExactlyTheDocumentedShape() {
    assertEquals(
        "{\"v\":1,\"download\":\"d1\",\"url\":\"http://m1:80/data/a.bin\",\"server\":\"m1:80\","
            + "\"peer\":\"client.example\",\"path\":\"/data/a.bin\",\"offset\":0,"
            + "\"bytes\":1048576,\"fileSize\":4194304,\"start\":\"2026-11-22T04:00:00.000Z\","
            + "\"end\":\"2026-11-22T04:00:02.000Z\",\"streams\":1,\"protocol\":\"http\","
            + "\"result\":\"ok\"}",
        line(0, 1_048_576, 4_194_304, "ok").toLine());
  }

  @Test
  void parse_linesWithoutMillisecondsAndKeysInAnyOrder_areRead() throws Exception {
    JournalLine j =
        JournalLine.parse(
            "{\"result\":\"ok\",\"v\":1,\"download\":\"d1\",\"url\":\"http://m1:80/data/a.bin\","
                + "\"server\":\"m1:80\",\"peer\":\"client.example\",\"path\":\"/data/a.bin\","
                + "\"offset\":0,\"bytes\":1048576,\"fileSize\":4194304,"
                + "\"start\":\"2026-11-22T04:00:00Z\",\"end\":\"2026-11-22T05:00:02+01:00\","
                + "\"streams\":1,\"protocol\":\"http\"}");
    assertEquals(line(0, 1_048_576, 4_194_304, "ok"), j);
  }

  @Test
  void constructor_refusesWhatTheParserRefuses_withTheSameReason() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> line(10, 5, 12, "ok"));
    assertEquals("range outside the file: offset 10 bytes 5 fileSize 12", e.getMessage());
    JournalLine.MalformedException m =
        assertThrows(
            JournalLine.MalformedException.class,
            () ->
                JournalLine.parse(
                    line(0, 5, 12, "ok").toLine().replace("\"offset\":0", "\"offset\":10")));
    assertEquals("range outside the file", m.reason());
    assertEquals("offset 10 bytes 5 fileSize 12", m.detail());
  }

  @Test
  void parse_badLines_giveStableReasons() {
    String good = line(0, 5, 12, "ok").toLine();
    String[][] cases = {
      {"[]", "not a JSON object"},
      {good.replace("\"v\":1", "\"v\":3"), "unsupported version"},
      {good.replace("\"v\":1", "\"v\":2"), "unknown key"},
      {good.replace("\"v\":1,", ""), "missing key v"},
      {good.replace("}", ",\"x\":1}"), "unknown key"},
      {good.replace("}", ",\"v\":1}"), "duplicate key"},
      {good.replace("\"protocol\":\"http\"", "\"protocol\":\"gopher\""), "bad protocol"},
      {good.replace("\"result\":\"ok\"", "\"result\":\"fine\""), "bad result"},
      {good.replace("\"peer\":\"client.example\"", "\"peer\":\"\""), "empty peer"},
      {good.replace("\"bytes\":5", "\"bytes\":-5"), "negative bytes"},
      {good.replace("\"streams\":1", "\"streams\":0"), "bad number streams"},
      {good.replace("04:00:02.000Z", "yesterday"), "bad timestamp end"},
      {good.substring(0, good.length() - 1), "truncated line"},
      {good + "{}", "trailing data"},
    };
    for (String[] c : cases) {
      JournalLine.MalformedException e =
          assertThrows(JournalLine.MalformedException.class, () -> JournalLine.parse(c[0]), c[0]);
      assertEquals(c[1], e.reason(), c[0]);
    }
  }

  /** Whatever is written is read back as the same line (times to the millisecond). */
  @Property(tries = 300)
  void written_parsesBackEqual(
      @ForAll @StringLength(min = 1, max = 40) String peer,
      @ForAll @StringLength(min = 1, max = 60) String path,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long fileSize,
      @ForAll @IntRange(min = 0, max = 1000) int offsetPermille,
      @ForAll @IntRange(min = 0, max = 1000) int bytesPermille,
      @ForAll @LongRange(min = 0, max = 10_000_000_000L) long millis,
      @ForAll boolean ok)
      throws Exception {
    long offset = fileSize * offsetPermille / 1000;
    long bytes = (fileSize - offset) * bytesPermille / 1000;
    JournalLine j =
        new JournalLine(
            "dl-" + millis,
            "http://m:80/" + path,
            "m:80",
            peer,
            "/" + path,
            offset,
            bytes,
            fileSize,
            T,
            T.plus(millis, ChronoUnit.MILLIS),
            1,
            "https",
            ok ? "ok" : "error: reset \"by\" peer");
    assertEquals(j, JournalLine.parse(j.toLine()));
  }
}
