package org.braid.infoprovider.logs;

import java.time.Instant;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * Parses the Globus GridFTP server transfer log ({@code -log-transfer FILE}): NetLogger {@code
 * KEY=value} pairs, one transfer per line, for example
 *
 * <pre>
 * DATE=20261122041153.582974 HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO
 * START=20261122041153.580706 USER=anonymous FILE=/data/a.bin BUFFER=131072 BLOCK=262144
 * NBYTES=3000000 VOLUME=/ STREAMS=1 STRIPES=1 DEST=[127.0.0.1] TYPE=RETR CODE=226
 * </pre>
 *
 * <p>DATE is the end, START the start, both UTC. TYPE RETR and ERET are reads, STOR, ESTO and APPE
 * writes; other types (listings) are skipped. DEST (the data peer) is the peer. Required: DATE,
 * START, FILE, NBYTES, DEST, TYPE, CODE. Keys the parser does not know (TASKID, retrans, ...) are
 * ignored, so newer servers keep working. A value may contain spaces (file names); it runs until
 * the next {@code KEY=} token. Thread-safe.
 */
final class GridFtpLogParser implements LogParser {

  @Override
  public TransferRecord parse(String line) throws MalformedLineException {
    Fields.checkText(line);
    String date = null;
    String start = null;
    String file = null;
    String buffer = null;
    String block = null;
    String nbytes = null;
    String volume = null;
    String streams = null;
    String dest = null;
    String type = null;
    String code = null;
    String host = null;
    int n = line.length();
    int i = 0;
    while (i < n) {
      while (i < n && line.charAt(i) == ' ') {
        i++;
      }
      if (i >= n) {
        break;
      }
      int tokenEnd = tokenEnd(line, i);
      int eq = line.indexOf('=', i);
      if (eq < 0 || eq >= tokenEnd || eq == i) {
        throw new MalformedLineException("not KEY=value", line.substring(i, tokenEnd));
      }
      int valueEnd = tokenEnd;
      if (eq + 1 < n && line.charAt(eq + 1) == '[') {
        int close = line.indexOf(']', eq + 1);
        if (close < 0) {
          throw new MalformedLineException(
              "truncated line", "unclosed [ in " + line.substring(i, eq));
        }
        valueEnd = close + 1;
      } else {
        // A value runs on over spaces until the next token that has a '=' (file names).
        while (valueEnd < n) {
          int next = valueEnd + 1;
          int nextEnd = tokenEnd(line, next);
          int nextEq = line.indexOf('=', next);
          if (nextEq >= 0 && nextEq < nextEnd) {
            break;
          }
          valueEnd = nextEnd;
        }
      }
      String value = line.substring(eq + 1, valueEnd);
      switch (eq - i) {
        case 4:
          if (line.startsWith("DATE", i)) {
            date = once("DATE", date, value);
          } else if (line.startsWith("FILE", i)) {
            file = once("FILE", file, value);
          } else if (line.startsWith("DEST", i)) {
            dest = once("DEST", dest, value);
          } else if (line.startsWith("TYPE", i)) {
            type = once("TYPE", type, value);
          } else if (line.startsWith("CODE", i)) {
            code = once("CODE", code, value);
          } else if (line.startsWith("HOST", i)) {
            host = once("HOST", host, value);
          }
          break;
        case 5:
          if (line.startsWith("START", i)) {
            start = once("START", start, value);
          } else if (line.startsWith("BLOCK", i)) {
            block = once("BLOCK", block, value);
          }
          break;
        case 6:
          if (line.startsWith("NBYTES", i)) {
            nbytes = once("NBYTES", nbytes, value);
          } else if (line.startsWith("BUFFER", i)) {
            buffer = once("BUFFER", buffer, value);
          } else if (line.startsWith("VOLUME", i)) {
            volume = once("VOLUME", volume, value);
          }
          break;
        case 7:
          if (line.startsWith("STREAMS", i)) {
            streams = once("STREAMS", streams, value);
          }
          break;
        default:
          break;
      }
      i = valueEnd;
    }
    require("DATE", date);
    require("START", start);
    require("FILE", file);
    require("NBYTES", nbytes);
    require("DEST", dest);
    require("TYPE", type);
    require("CODE", code);
    Operation op = operation(type);
    if (op == null) {
      return null;
    }
    long size = Fields.count("NBYTES", nbytes);
    Instant end = Fields.netLoggerTime("DATE", date);
    Instant begin = Fields.netLoggerTime("START", start);
    if (end.isBefore(begin)) {
      throw new MalformedLineException("end before start", "START=" + start + " DATE=" + date);
    }
    int nStreams = 1;
    if (streams != null) {
      long s = Fields.count("STREAMS", streams);
      if (s < 1 || s > 65_535) {
        throw new MalformedLineException("bad number STREAMS", streams);
      }
      nStreams = (int) s;
    }
    long tcpBuffer = buffer == null ? TransferRecord.UNKNOWN : Fields.count("BUFFER", buffer);
    long blockSize = block == null ? TransferRecord.UNKNOWN : Fields.count("BLOCK", block);
    if (Fields.parseLong(code, 0, code.length()) < 0) {
      throw new MalformedLineException("bad number CODE", code);
    }
    return new TransferRecord(
        host == null ? "unknown" : host,
        peer(dest),
        file,
        size,
        begin,
        end,
        nStreams,
        tcpBuffer,
        blockSize,
        op,
        volume == null || volume.isEmpty() ? "/" : volume,
        code,
        "gsiftp");
  }

  private static int tokenEnd(String line, int from) {
    int sp = line.indexOf(' ', from);
    return sp < 0 ? line.length() : sp;
  }

  private static String once(String key, String old, String value) throws MalformedLineException {
    if (old != null) {
      throw new MalformedLineException("duplicate key " + key, value);
    }
    return value;
  }

  private static void require(String key, String value) throws MalformedLineException {
    if (value == null) {
      throw new MalformedLineException("missing key " + key, "");
    }
  }

  private static Operation operation(String type) throws MalformedLineException {
    switch (type) {
      case "RETR":
      case "ERET":
        return Operation.READ;
      case "STOR":
      case "ESTO":
      case "APPE":
        return Operation.WRITE;
      default:
        if (type.isEmpty()) {
          throw new MalformedLineException("bad TYPE", "empty");
        }
        return null;
    }
  }

  /** The first address in DEST=[a b ...], without an IPv4-mapped IPv6 prefix. */
  private static String peer(String dest) throws MalformedLineException {
    String d = dest;
    if (d.startsWith("[")) {
      d = d.substring(1, d.length() - 1);
    }
    d = d.strip();
    int cut = 0;
    while (cut < d.length() && d.charAt(cut) != ' ' && d.charAt(cut) != ',') {
      cut++;
    }
    d = d.substring(0, cut);
    if (d.isEmpty()) {
      throw new MalformedLineException("bad DEST", dest);
    }
    if (d.startsWith("::ffff:")) {
      d = d.substring(7);
    }
    return d;
  }
}
