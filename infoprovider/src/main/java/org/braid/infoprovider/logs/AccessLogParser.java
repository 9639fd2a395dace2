package org.braid.infoprovider.logs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * Parses nginx and Apache access logs written in Braid's format (docs/provider.md): ten fields,
 *
 * <pre>
 * END_EPOCH_SECONDS.MS REQUEST_TIME CLIENT SERVER:PORT METHOD "PATH" STATUS BODY_BYTES REQUEST_BYTES "RANGE"
 * 1763784713.123 0.052 10.1.2.3 10.0.0.5:80 GET "/data/a.bin" 206 5000 95 "bytes=1000-5999"
 * </pre>
 *
 * nginx: {@code log_format braid '$msec $request_time $remote_addr $server_addr:$server_port
 * $request_method "$uri" $status $body_bytes_sent $request_length "$http_range"';} (request time in
 * seconds, millisecond resolution). Apache: {@code LogFormat "%{end:msec}t %D %a %A:%p %m \"%U\"
 * %>s %B %I \"%{Range}i\"" braid} (end time in integer milliseconds since the epoch, request time
 * in microseconds).
 *
 * <p>A GET answered 200 (whole file) or 206 (a range: a partial transfer of the file) is a read of
 * BODY_BYTES; a PUT answered 200, 201 or 204 is a write of REQUEST_BYTES (which includes the
 * request headers). Other requests are skipped. The start is the end minus the request time. nginx
 * logs a request time of 0.000 for requests under a millisecond; such a request is counted as
 * taking 1 ms (the log's resolution). Thread-safe.
 */
final class AccessLogParser implements LogParser {

  /** Unit of the request-time field. */
  enum TimeUnit {
    /** nginx: {@code $msec} and {@code $request_time} in seconds with a fraction. */
    SECONDS,
    /** Apache: {@code %{end:msec}t} in integer milliseconds, {@code %D} in microseconds. */
    MICROSECONDS
  }

  private static final int FIELDS = 10;
  private static final long NANOS_PER_MS = 1_000_000L;

  private final TimeUnit unit;

  AccessLogParser(TimeUnit unit) {
    this.unit = unit;
  }

  @Override
  public TransferRecord parse(String line) throws MalformedLineException {
    Fields.checkText(line);
    List<String> f = split(line);
    if (f.size() < FIELDS) {
      throw new MalformedLineException(
          "truncated line", "expected " + FIELDS + " fields, found " + f.size());
    }
    if (f.size() > FIELDS) {
      throw new MalformedLineException(
          "not the braid log format", "expected " + FIELDS + " fields, found " + f.size());
    }
    long endNanos;
    long durationNanos;
    if (unit == TimeUnit.SECONDS) {
      endNanos = decimalNanos("end time", f.get(0));
      durationNanos = decimalNanos("request time", f.get(1));
      durationNanos = Math.max(durationNanos, NANOS_PER_MS);
    } else {
      endNanos = Fields.count("end time", f.get(0)) * NANOS_PER_MS;
      durationNanos = Fields.count("request time", f.get(1)) * 1_000;
    }
    String method = f.get(4);
    String status = f.get(6);
    if (status.length() != 3 || Fields.parseLong(status, 0, 3) < 0) {
      throw new MalformedLineException("bad status", status);
    }
    long body = Fields.count("body bytes", f.get(7));
    long request = Fields.count("request bytes", f.get(8));
    Operation op;
    long size;
    if (method.equals("GET") && (status.equals("200") || status.equals("206"))) {
      op = Operation.READ;
      size = body;
    } else if (method.equals("PUT")
        && (status.equals("200") || status.equals("201") || status.equals("204"))) {
      op = Operation.WRITE;
      size = request;
    } else {
      return null;
    }
    String path = f.get(5);
    if (path.isEmpty() || path.charAt(0) != '/') {
      throw new MalformedLineException("bad path", path);
    }
    Instant end = Instant.ofEpochSecond(endNanos / 1_000_000_000L, endNanos % 1_000_000_000L);
    Instant start = end.minusNanos(durationNanos);
    return new TransferRecord(
        f.get(3),
        f.get(2),
        path,
        size,
        start,
        end,
        1,
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        op,
        "/",
        status,
        "http");
  }

  /** Splits on spaces; a field in double quotes may hold spaces and backslash escapes. */
  private static List<String> split(String line) throws MalformedLineException {
    List<String> out = new ArrayList<>(FIELDS + 1);
    int n = line.length();
    int i = 0;
    while (i < n) {
      char c = line.charAt(i);
      if (c == ' ') {
        i++;
      } else if (c == '"') {
        int j = i + 1;
        int close = -1;
        boolean escaped = false;
        for (int k = j; k < n; k++) {
          char d = line.charAt(k);
          if (d == '\\') {
            escaped = true;
            k++;
          } else if (d == '"') {
            close = k;
            break;
          }
        }
        if (close < 0) {
          throw new MalformedLineException("truncated line", "unclosed quote at column " + (i + 1));
        }
        String v = escaped ? unescape(line, j, close) : line.substring(j, close);
        out.add(v.equals("-") ? "" : v);
        i = close + 1;
      } else {
        int sp = line.indexOf(' ', i);
        int e = sp < 0 ? n : sp;
        out.add(line.substring(i, e));
        i = e;
      }
      if (out.size() > FIELDS) {
        break;
      }
    }
    return out;
  }

  /**
   * Undoes the servers' escapes: nginx writes {@code \xHH} for '"', '\\' and bytes outside
   * printable ASCII; Apache writes {@code \"}, {@code \\}, {@code \xhh} and C-style {@code \n},
   * {@code \t}, {@code \r}, {@code \b}, {@code \v}. Escaped bytes are decoded as UTF-8.
   */
  private static String unescape(String line, int from, int to) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(to - from);
    for (int k = from; k < to; k++) {
      char d = line.charAt(k);
      if (d == '\\'
          && k + 3 < to
          && line.charAt(k + 1) == 'x'
          && hex(line.charAt(k + 2)) >= 0
          && hex(line.charAt(k + 3)) >= 0) {
        bytes.write(hex(line.charAt(k + 2)) * 16 + hex(line.charAt(k + 3)));
        k += 3;
      } else if (d == '\\' && k + 1 < to) {
        char e = line.charAt(k + 1);
        switch (e) {
          case 'n' -> bytes.write('\n');
          case 't' -> bytes.write('\t');
          case 'r' -> bytes.write('\r');
          case 'b' -> bytes.write('\b');
          case 'v' -> bytes.write(0x0b);
          default -> bytes.write(e);
        }
        k++;
      } else {
        byte[] b = String.valueOf(d).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
      }
    }
    return new String(bytes.toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  /** Parses "123.456" (non-negative, up to 9 fraction digits) to nanoseconds. */
  private static long decimalNanos(String what, String s) throws MalformedLineException {
    int dot = s.indexOf('.');
    int intEnd = dot < 0 ? s.length() : dot;
    if (s.startsWith("-")) {
      throw new MalformedLineException("negative " + what, s);
    }
    long whole = Fields.parseLong(s, 0, intEnd);
    long frac = 0;
    if (dot >= 0) {
      int digits = s.length() - dot - 1;
      frac = digits > 9 ? -1 : Fields.parseLong(s, dot + 1, s.length());
      for (int k = digits; k < 9 && frac >= 0; k++) {
        frac *= 10;
      }
    }
    if (whole < 0 || frac < 0 || whole > 9_000_000_000L) {
      throw new MalformedLineException("bad " + what, s);
    }
    return whole * 1_000_000_000L + frac;
  }
}
