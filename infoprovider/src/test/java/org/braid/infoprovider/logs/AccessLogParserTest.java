package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AccessLogParserTest {

  static final String NGINX_206 =
      "1763784713.123 0.052 10.1.2.3 10.0.0.5:80 GET \"/data/a.bin\" 206 5000 95 \"bytes=1000-5999\"";
  static final String APACHE_200 =
      "1763784713123 52000 10.1.2.3 10.0.0.5:80 GET \"/data/a.bin\" 200 3000000 120 \"-\"";

  private final LogParser nginx = LogFormat.NGINX.parser();
  private final LogParser apache = LogFormat.APACHE.parser();

  @Test
  void nginx_range206_isPartialRead() throws Exception {
    TransferRecord r = nginx.parse(NGINX_206);
    assertEquals(Operation.READ, r.operation());
    assertEquals(5000, r.size());
    assertEquals("10.1.2.3", r.peer());
    assertEquals("10.0.0.5:80", r.server());
    assertEquals("/data/a.bin", r.path());
    assertEquals("206", r.resultCode());
    assertEquals(Instant.parse("2025-11-22T04:11:53.123Z"), r.end());
    assertEquals(Duration.ofMillis(52), r.duration());
    assertEquals(5000 / 0.052, r.bandwidth(), 1e-6);
  }

  @Test
  void nginx_zeroRequestTime_countsOneMillisecond() throws Exception {
    TransferRecord r = nginx.parse(NGINX_206.replace(" 0.052 ", " 0.000 "));
    assertEquals(Duration.ofMillis(1), r.duration());
  }

  @Test
  void nginx_pathWithEscapedQuoteAndSpace_isUnescaped() throws Exception {
    TransferRecord r =
        nginx.parse(NGINX_206.replace("\"/data/a.bin\"", "\"/data/my \\\"x\\\".bin\""));
    assertEquals("/data/my \"x\".bin", r.path());
  }

  @Test
  void nginx_hexEscapes_areDecodedAsUtf8() throws Exception {
    TransferRecord r =
        nginx.parse(NGINX_206.replace("\"/data/a.bin\"", "\"/data/\\x22caf\\xC3\\xA9\\x22.bin\""));
    assertEquals("/data/\"caf\u00e9\".bin", r.path());
  }

  @Test
  void apache_cStyleEscapes_areDecoded() throws Exception {
    TransferRecord r =
        apache.parse(APACHE_200.replace("\"/data/a.bin\"", "\"/data/a\\tb\\\\c.bin\""));
    assertEquals("/data/a\tb\\c.bin", r.path());
  }

  @Test
  void apache_requestTimeInMicroseconds() throws Exception {
    // %{msec}t is whole milliseconds since the epoch in Apache.
    TransferRecord r = apache.parse(APACHE_200);
    assertEquals(Instant.parse("2025-11-22T04:11:53.123Z"), r.end());
    assertEquals(Duration.ofMillis(52), r.duration());
    assertEquals(3_000_000, r.size());
    assertEquals("200", r.resultCode());
  }

  @Test
  void put201_isWriteOfRequestBytes() throws Exception {
    TransferRecord r = nginx.parse(NGINX_206.replace("GET", "PUT").replace(" 206 ", " 201 "));
    assertEquals(Operation.WRITE, r.operation());
    assertEquals(95, r.size());
    assertTrue(r.succeeded());
  }

  @Test
  void notFoundAndHead_areSkipped() throws Exception {
    assertNull(nginx.parse(NGINX_206.replace(" 206 ", " 404 ")));
    assertNull(nginx.parse(NGINX_206.replace("GET", "HEAD")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "truncated|CUT|truncated line",
        "negative bytes|206 5000>206 -5000|negative body bytes",
        "negative request time|0.052 10>-0.052 10|negative request time",
        "bad status|206 5000>2x6 5000|bad status",
        "extra field|\"bytes=1000-5999\">\"bytes=1000-5999\" extra|not the braid log format",
        "combined format instead|ALL>10.1.2.3 - - [22/Nov/2026:04:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\"|bad end time",
        "unclosed quote|\"/data/a.bin\" 206 5000 95 \"bytes=1000-5999\">\"/data/a.bin|truncated line",
        "binary|GET>G\u0007T|binary data",
      })
  void malformed_rejectedWithReason(String name, String edit, String reason) {
    String line;
    if (edit.equals("CUT")) {
      line = NGINX_206.substring(0, 40);
    } else if (edit.startsWith("ALL>")) {
      line = edit.substring(4);
    } else {
      String[] ab = edit.split(">", 2);
      line = NGINX_206.replace(ab[0], ab[1]);
    }
    MalformedLineException e = assertThrows(MalformedLineException.class, () -> nginx.parse(line));
    assertEquals(reason, e.reason(), e.getMessage());
  }
}
