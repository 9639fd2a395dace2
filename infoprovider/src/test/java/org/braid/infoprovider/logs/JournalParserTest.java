package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JournalParserTest {

  static final String FLOW =
      "{\"v\":1,\"download\":\"d1\",\"url\":\"http://m1:80/data/a.bin\",\"server\":\"m1:80\","
          + "\"peer\":\"client.example\",\"path\":\"/data/a.bin\",\"offset\":1048576,"
          + "\"bytes\":1048576,\"fileSize\":4194304,\"start\":\"2026-11-22T04:00:00Z\","
          + "\"end\":\"2026-11-22T04:00:02Z\",\"streams\":1,\"protocol\":\"http\",\"result\":\"ok\"}";

  private final LogParser parser = LogFormat.BRAID.parser();

  @Test
  void parse_flow_givesRead() throws Exception {
    TransferRecord r = parser.parse(FLOW);
    assertEquals("m1:80", r.server());
    assertEquals("client.example", r.peer());
    assertEquals("/data/a.bin", r.path());
    assertEquals(1_048_576, r.size());
    assertEquals(Instant.parse("2026-11-22T04:00:00Z"), r.start());
    assertEquals(Operation.READ, r.operation());
    assertEquals("http", r.protocol());
    assertEquals(524_288.0, r.bandwidth(), 1e-9);
  }

  /** A version 2 line: what a replica delivered in a download, its rate over its busy time. */
  static final String DELIVERY =
      "{\"v\":2,\"download\":\"d1\",\"url\":\"http://m1:80/data/a.bin\",\"server\":\"m1:80\","
          + "\"peer\":\"client.example\",\"path\":\"/data/a.bin\",\"fileSize\":4194304,"
          + "\"bytes\":1048576,\"received\":1310720,\"start\":\"2026-11-22T04:00:00.000Z\","
          + "\"end\":\"2026-11-22T04:00:02.500Z\",\"busyMs\":2000,\"requests\":3,\"failures\":0,"
          + "\"connections\":1,\"sharedMs\":1500,\"replicas\":2,\"flows\":2,\"streams\":1,"
          + "\"protocol\":\"http\",\"result\":\"ok\"}";

  @Test
  void parse_delivery_isTheReceivedBytesOverTheBusyTime() throws Exception {
    TransferRecord r = parser.parse(DELIVERY);
    assertEquals("m1:80", r.server());
    assertEquals(1_310_720, r.size());
    assertEquals(Instant.parse("2026-11-22T04:00:02.500Z"), r.end());
    assertEquals(2.0, r.seconds(), 1e-9); // busy, not the 2.5 s span
    assertEquals(655_360.0, r.bandwidth(), 1e-9);
    assertEquals(1500, r.journal().sharedMillis());
    assertEquals(DELIVERY, r.journal().toLine());
  }

  @Test
  void parse_errorFlow_isRecordThatFailed() throws Exception {
    TransferRecord r = parser.parse(FLOW.replace("\"ok\"", "\"error: connection reset\""));
    assertFalse(r.succeeded());
    assertEquals("error: connection reset", r.resultCode());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown key|\"v\":1,>\"v\":1,\"x\":2,|unknown key",
        "negative bytes|\"bytes\":1048576>\"bytes\":-1|negative bytes",
        "end before start|04:00:02Z>03:59:59Z|end before start",
        "version 3|\"v\":1>\"v\":3|unsupported version",
        "version 2 keys|\"v\":1>\"v\":2|unknown key",
        "range beyond file|\"fileSize\":4194304>\"fileSize\":1048577|range outside the file",
        "bad protocol|\"http\",\"result\">\"gopher\",\"result\"|bad protocol",
        "bad result|\"ok\">\"fine\"|bad result",
        "string for number|\"streams\":1>\"streams\":\"1\"|bad number streams",
        "bad time|2026-11-22T04:00:00Z>yesterday|bad timestamp start",
        "missing key|\"streams\":1,>|missing key streams",
        "duplicate key|\"v\":1,>\"v\":1,\"v\":1,|duplicate key",
        "truncated|CUT|truncated line",
        "not an object|ARRAY|not a JSON object",
      })
  void malformed_rejectedWithReason(String name, String edit, String reason) {
    String line;
    if (edit.equals("CUT")) {
      line = FLOW.substring(0, 60);
    } else if (edit.equals("ARRAY")) {
      line = "[1,2]";
    } else {
      String[] ab = edit.split(">", 2);
      line = FLOW.replace(ab[0], ab[1]);
    }
    MalformedLineException e = assertThrows(MalformedLineException.class, () -> parser.parse(line));
    assertEquals(reason, e.reason(), e.getMessage());
  }
}
