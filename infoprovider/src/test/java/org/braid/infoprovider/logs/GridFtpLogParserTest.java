package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GridFtpLogParserTest {

  // Verbatim from globus-gridftp-server 13 (Debian 12) with -log-transfer.
  static final String RETR =
      "DATE=20261122041153.582974 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO"
          + " START=20261122041153.580706 USER=anonymous FILE=/tmp/gftp/data/a.bin BUFFER=131072"
          + " BLOCK=262144 NBYTES=3000000 VOLUME=/ STREAMS=1 STRIPES=1 DEST=[127.0.0.1] TYPE=RETR"
          + " CODE=226 TASKID=none";
  static final String STOR =
      "DATE=20261122041153.631069 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO"
          + " START=20261122041153.630150 USER=anonymous FILE=/tmp/gftp/up.bin BUFFER=3939840"
          + " BLOCK=262144 NBYTES=200000 VOLUME=/ STREAMS=4 STRIPES=1 DEST=[127.0.0.1] TYPE=STOR"
          + " CODE=226 TASKID=none retrans=0,0,0,0";

  private final LogParser parser = LogFormat.GRIDFTP.parser();

  @Test
  void parse_realRetrLine_givesReadRecord() throws Exception {
    TransferRecord r = parser.parse(RETR);
    assertEquals("vm", r.server());
    assertEquals("127.0.0.1", r.peer());
    assertEquals("/tmp/gftp/data/a.bin", r.path());
    assertEquals(3_000_000, r.size());
    assertEquals(Instant.parse("2026-11-22T04:11:53.580706Z"), r.start());
    assertEquals(Instant.parse("2026-11-22T04:11:53.582974Z"), r.end());
    assertEquals(1, r.streams());
    assertEquals(131_072, r.tcpBuffer());
    assertEquals(262_144, r.blockSize());
    assertEquals(Operation.READ, r.operation());
    assertEquals("/", r.volume());
    assertEquals("226", r.resultCode());
    assertEquals("gsiftp", r.protocol());
    assertEquals(3_000_000 / 0.002268, r.bandwidth(), 1e-3);
  }

  @Test
  void parse_realStorLineWithUnknownKeys_givesWriteRecord() throws Exception {
    TransferRecord r = parser.parse(STOR);
    assertEquals(Operation.WRITE, r.operation());
    assertEquals(4, r.streams());
    assertEquals(200_000, r.size());
  }

  @Test
  void parse_eretAndEsto_areReadAndWrite() throws Exception {
    assertEquals(Operation.READ, parser.parse(RETR.replace("TYPE=RETR", "TYPE=ERET")).operation());
    assertEquals(Operation.WRITE, parser.parse(RETR.replace("TYPE=RETR", "TYPE=ESTO")).operation());
  }

  @Test
  void parse_listing_isSkipped() throws Exception {
    assertNull(parser.parse(RETR.replace("TYPE=RETR", "TYPE=LIST")));
  }

  @Test
  void parse_fileNameWithSpaces_keepsWholeName() throws Exception {
    TransferRecord r =
        parser.parse(RETR.replace("FILE=/tmp/gftp/data/a.bin", "FILE=/data/my file 2.bin"));
    assertEquals("/data/my file 2.bin", r.path());
  }

  @Test
  void parse_ipv4MappedDest_isPlainAddress() throws Exception {
    assertEquals("10.1.2.3", parser.parse(RETR.replace("[127.0.0.1]", "[::ffff:10.1.2.3]")).peer());
  }

  @Test
  void parse_failedTransfer_isRecordThatDidNotSucceed() throws Exception {
    TransferRecord r = parser.parse(RETR.replace("CODE=226", "CODE=426"));
    assertNotNull(r);
    assertEquals(false, r.succeeded());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "truncated before CODE|TRUNCATE|missing key CODE",
        "negative size|NBYTES=3000000>NBYTES=-5|negative NBYTES",
        "size not a number|NBYTES=3000000>NBYTES=3e6|bad number NBYTES",
        "end before start|DATE=20261122041153.582974>DATE=20261122041152.000000|end before start",
        "bad month|DATE=20261122041153.582974>DATE=20261322041153.582974|bad timestamp DATE",
        "binary garbage|VOLUME=/>VOLUME=\u0001\u0002\u00ff|binary data",
        "duplicate key|TYPE=RETR>TYPE=RETR TYPE=STOR|duplicate key TYPE",
        "token without equals|DATE=20261122041153.582974>junk DATE=20261122041153.582974|not KEY=value",
        "zero streams|STREAMS=1>STREAMS=0|bad number STREAMS",
        "unclosed dest|DEST=[127.0.0.1] TYPE=RETR CODE=226 TASKID=none>DEST=[127.0.0.1|truncated line",
      })
  void parse_malformed_rejectsWithReason(String name, String edit, String reason) {
    String line;
    if (edit.equals("TRUNCATE")) {
      line = RETR.substring(0, RETR.indexOf(" CODE="));
    } else {
      String[] ab = edit.split(">", 2);
      line = RETR.replace(ab[0], ab[1]);
    }
    MalformedLineException e = assertThrows(MalformedLineException.class, () -> parser.parse(line));
    assertEquals(reason, e.reason());
  }

  @Test
  void parse_garbageBytes_rejected() {
    assertThrows(MalformedLineException.class, () -> parser.parse("\u0000\u0013binary\uFFFD"));
    assertThrows(MalformedLineException.class, () -> parser.parse("hello world"));
  }
}
