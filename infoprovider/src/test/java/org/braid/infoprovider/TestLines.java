package org.braid.infoprovider;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Builds realistic GridFTP transfer-log lines for tests. */
public final class TestLines {

  private static final DateTimeFormatter NL =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSSSSS").withZone(ZoneOffset.UTC);

  /** The time the fake clocks of the tests stand at. */
  public static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  private TestLines() {}

  /**
   * A successful RETR line, ending {@code i} seconds after 2026-11-22T00:00:00Z, moving {@code
   * bytes} in {@code millis} ms to {@code peer}.
   */
  public static String gridftp(int i, String peer, long bytes, long millis, String type) {
    Instant end = Instant.parse("2026-11-22T00:00:00Z").plusSeconds(i);
    Instant start = end.minusMillis(millis);
    return "DATE="
        + NL.format(end)
        + " HOST=gridftp.example.org PROG=globus-gridftp-server"
        + " NL.EVNT=FTP_INFO START="
        + NL.format(start)
        + " USER=anonymous FILE=/data/f"
        + i
        + ".bin BUFFER=1048576 BLOCK=262144 NBYTES="
        + bytes
        + " VOLUME=/data STREAMS=8 STRIPES=1"
        + " DEST=["
        + peer
        + "] TYPE="
        + type
        + " CODE=226 TASKID=none";
  }

  /** A read line of 1 MB in 100 ms from 10.0.0.1. */
  public static String gridftp(int i) {
    return gridftp(i, "10.0.0.1", 1_000_000, 100, "RETR");
  }
}
