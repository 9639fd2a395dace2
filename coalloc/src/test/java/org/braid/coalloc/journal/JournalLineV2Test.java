package org.braid.coalloc.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class JournalLineV2Test {

  private static final Instant T = Instant.parse("2026-11-22T04:00:00Z");

  static final String DOC_LINE =
      "{\"v\":2,\"download\":\"d1\",\"url\":\"http://m1:80/data/a.bin\",\"server\":\"m1:80\","
          + "\"peer\":\"client.example\",\"path\":\"/data/a.bin\",\"fileSize\":4194304,"
          + "\"bytes\":1048576,\"received\":1048576,\"start\":\"2026-11-22T04:00:00.000Z\","
          + "\"end\":\"2026-11-22T04:00:02.500Z\",\"busyMs\":2000,\"requests\":3,\"failures\":0,"
          + "\"connections\":1,\"sharedMs\":1500,\"replicas\":2,\"flows\":2,\"streams\":1,"
          + "\"protocol\":\"http\",\"result\":\"ok\"}";

  private static JournalLineBuilder doc() {
    return JournalLine.delivery(
            "d1", "http://m1:80/data/a.bin", "m1:80", "client.example", "/data/a.bin", "http")
        .bytes(4_194_304, 1_048_576, 1_048_576)
        .time(T, T.plusMillis(2500), 2000)
        .requests(3, 0, 1)
        .sharing(1500, 2, 2);
  }

  /** A version 1 request line of download d, as 0.x wrote it. */
  static String v1(String d, String server, long offset, long bytes, String start, String end) {
    return "{\"v\":1,\"download\":\""
        + d
        + "\",\"url\":\"http://"
        + server
        + "/f.bin\",\"server\":\""
        + server
        + "\",\"peer\":\"c\",\"path\":\"/f.bin\",\"offset\":"
        + offset
        + ",\"bytes\":"
        + bytes
        + ",\"fileSize\":33554432,\"start\":\""
        + start
        + "\",\"end\":\""
        + end
        + "\",\"streams\":1,\"protocol\":\"http\",\"result\":\"ok\"}";
  }

  @Test
  void toLine_isExactlyTheDocumentedShape() throws Exception {
    JournalLine j = doc().build();
    assertEquals(DOC_LINE, j.toLine());
    assertEquals(j, JournalLine.parse(DOC_LINE));
    assertEquals(2, j.version());
    assertFalse(j.isRequest());
    assertEquals(1_048_576 / 2.0, j.rate(), 1e-9);
  }

  @Test
  void parse_v1Line_becomesOneRequestWithUnknownSharing() throws Exception {
    JournalLine j =
        JournalLine.parse(
            v1("d", "m:80", 0, 2_000_000, "2026-11-22T04:00:00.000Z", "2026-11-22T04:00:01.000Z"));
    assertTrue(j.isRequest());
    assertEquals(2_000_000, j.received());
    assertEquals(1000, j.busyMillis());
    assertEquals(1, j.requests());
    assertEquals(1, j.connections());
    assertEquals(-1, j.sharedMillis());
    assertEquals(0, j.replicas());
    assertEquals(2_000_000, j.rate(), 1e-6);
  }

  @Test
  void constructor_refusesWhatTheParserRefuses_withTheSameReason() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> doc().time(T, T.plusMillis(100), 200).build());
    assertEquals("busy longer than the span: busyMs 200 span 100 ms", e.getMessage());
    JournalLine.MalformedException m =
        assertThrows(
            JournalLine.MalformedException.class,
            () -> JournalLine.parse(DOC_LINE.replace("\"busyMs\":2000", "\"busyMs\":2600")));
    assertEquals("busy longer than the span", m.reason());
    assertEquals("busyMs 2600 span 2500 ms", m.detail());
  }

  @Test
  void parse_badV2Lines_giveStableReasons() {
    String[][] cases = {
      {DOC_LINE.replace("\"busyMs\":2000,", ""), "missing key busyMs"},
      {DOC_LINE.replace("\"fileSize\"", "\"offset\":0,\"fileSize\""), "unknown key"},
      {DOC_LINE.replace("\"received\":1048576", "\"received\":1"), "more bytes than received"},
      {DOC_LINE.replace("\"sharedMs\":1500", "\"sharedMs\":2001"), "shared longer than busy"},
      {DOC_LINE.replace("\"failures\":0", "\"failures\":4"), "bad number failures"},
      {DOC_LINE.replace("\"connections\":1", "\"connections\":0"), "bad number connections"},
      {DOC_LINE.replace("\"replicas\":2", "\"replicas\":0"), "bad number replicas"},
      {DOC_LINE.replace("\"flows\":2", "\"flows\":1"), "bad number flows"},
      {DOC_LINE.replace("\"requests\":3", "\"requests\":0"), "bad number requests"},
      {DOC_LINE.replace("\"busyMs\":2000", "\"busyMs\":-1"), "negative busyMs"},
      {DOC_LINE.replace("\"busyMs\":2000", "\"busyMs\":2.5"), "bad value"},
    };
    for (String[] c : cases) {
      JournalLine.MalformedException e =
          assertThrows(JournalLine.MalformedException.class, () -> JournalLine.parse(c[0]), c[0]);
      assertEquals(c[1], e.reason(), c[0]);
    }
  }

  @Test
  void toLine_ofAV1Line_writesVersion1() throws Exception {
    String line = v1("d", "m:80", 0, 5, "2026-11-22T04:00:00.000Z", "2026-11-22T04:00:00.100Z");
    assertEquals(line, JournalLine.parse(line).toLine());
  }

  /**
   * The 0.x journal that ranked a 2 MB/s mirror first at 19 GB/s: a tail request of 262,144 bytes
   * in 0.000 s is a request, not a measurement; merged with the download's other requests from that
   * mirror it adds its bytes and no time.
   */
  @Test
  void aggregate_v1Requests_unionOfSpansAndInstantTailAddsNoTime() throws Exception {
    List<JournalLine> lines =
        List.of(
            JournalLine.parse(
                v1(
                    "d",
                    "m:80",
                    0,
                    2_000_000,
                    "2026-11-22T04:00:00.000Z",
                    "2026-11-22T04:00:01.000Z")),
            // a second connection overlapping the first by half a second
            JournalLine.parse(
                v1(
                    "d",
                    "m:80",
                    2_000_000,
                    2_000_000,
                    "2026-11-22T04:00:00.500Z",
                    "2026-11-22T04:00:01.500Z")),
            JournalLine.parse(
                v1(
                    "d",
                    "m:80",
                    4_000_000,
                    262_144,
                    "2026-11-22T04:00:03.000Z",
                    "2026-11-22T04:00:03.000Z")));
    assertEquals(0, lines.get(2).rate()); // an instantaneous line measures nothing
    JournalLine a = JournalLine.aggregate(lines);
    assertEquals(2, a.version());
    assertEquals(4_262_144, a.bytes());
    assertEquals(1500, a.busyMillis()); // not 2000 (the sum) and not 3000 (the span)
    assertEquals(3000, a.end().toEpochMilli() - a.start().toEpochMilli());
    assertEquals(3, a.requests());
    assertEquals(2, a.connections());
    assertEquals(-1, a.sharedMillis());
    assertEquals(4_262_144 / 1.5, a.rate(), 1e-6);
    assertEquals(a, JournalLine.parse(a.toLine()));
  }

  @Test
  void aggregate_refusesLinesOfAnotherReplica() throws Exception {
    JournalLine a = doc().build();
    JournalLine b =
        JournalLine.delivery("d1", "http://m2:80/a", "m2:80", "c", "/a", "http").build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JournalLine.aggregate(List.of(a, b)));
    assertTrue(e.getMessage().startsWith("journal lines of different replicas"), e.getMessage());
  }

  /** Whatever is written is read back as the same line. */
  @Property(tries = 300)
  void written_parsesBackEqual(
      @ForAll @StringLength(min = 1, max = 40) String peer,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long fileSize,
      @ForAll @IntRange(min = 0, max = 1000) int bytesPermille,
      @ForAll @LongRange(min = 0, max = 10_000_000_000L) long millis,
      @ForAll @IntRange(min = 0, max = 1000) int busyPermille,
      @ForAll @IntRange(min = 1, max = 1000) int requests,
      @ForAll @IntRange(min = 1, max = 16) int replicas,
      @ForAll boolean ok)
      throws Exception {
    long bytes = fileSize * bytesPermille / 1000;
    long busy = millis * busyPermille / 1000;
    JournalLine j =
        JournalLine.delivery("dl-" + millis, "gsiftp://m:2811/x", "m:2811", peer, "/x", "gsiftp")
            .bytes(fileSize, bytes, bytes + millis)
            .time(T, T.plusMillis(millis), busy)
            .requests(requests, ok ? 0 : requests, Math.max(1, requests / 2))
            .sharing(busy / 2, replicas, replicas + requests)
            .streams(4)
            .result(ok ? "ok" : "error: reset \"by\" peer")
            .build();
    assertEquals(j, JournalLine.parse(j.toLine()));
  }
}
