package org.braid.infoprovider.logs;

import java.time.Instant;

/** Fast, allocation-light field checks and conversions shared by the parsers. */
final class Fields {

  private Fields() {}

  /** Rejects control characters and undecodable bytes (U+FFFD): binary garbage, not a log line. */
  static void checkText(String line) throws MalformedLineException {
    for (int i = 0, n = line.length(); i < n; i++) {
      char c = line.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c == '\uFFFD') {
        throw new MalformedLineException(
            "binary data", "character " + (int) c + " at column " + (i + 1));
      }
    }
  }

  /** Parses a non-negative decimal long; -1 if not a plain decimal number. */
  static long parseLong(String s, int from, int to) {
    if (from >= to || to - from > 18) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /**
   * Parses a count field: a non-negative integer, with "negative KEY" and "bad number KEY" as the
   * reasons on failure.
   */
  static long count(String key, String value) throws MalformedLineException {
    long v = parseLong(value, 0, value.length());
    if (v < 0) {
      if (value.startsWith("-") && parseLong(value, 1, value.length()) >= 0) {
        throw new MalformedLineException("negative " + key, value);
      }
      throw new MalformedLineException("bad number " + key, value);
    }
    return v;
  }

  /**
   * Parses a GridFTP NetLogger time, {@code yyyyMMddHHmmss[.ffffff]} in UTC.
   *
   * @throws MalformedLineException "bad timestamp KEY" when it is not one
   */
  static Instant netLoggerTime(String key, String s) throws MalformedLineException {
    int n = s.length();
    if (n < 14 || (n > 14 && s.charAt(14) != '.') || n > 24) {
      throw new MalformedLineException("bad timestamp " + key, s);
    }
    long year = parseLong(s, 0, 4);
    long month = parseLong(s, 4, 6);
    long day = parseLong(s, 6, 8);
    long hour = parseLong(s, 8, 10);
    long min = parseLong(s, 10, 12);
    long sec = parseLong(s, 12, 14);
    long nanos = 0;
    if (n > 15) {
      long frac = parseLong(s, 15, n);
      if (frac < 0) {
        throw new MalformedLineException("bad timestamp " + key, s);
      }
      for (int i = n - 15; i < 9; i++) {
        frac *= 10;
      }
      nanos = frac;
    } else if (n == 15) {
      throw new MalformedLineException("bad timestamp " + key, s);
    }
    if (year < 1970
        || month < 1
        || month > 12
        || day < 1
        || day > daysInMonth(year, month)
        || hour < 0
        || hour > 23
        || min < 0
        || min > 59
        || sec < 0
        || sec > 60) {
      throw new MalformedLineException("bad timestamp " + key, s);
    }
    long epochSecond = epochDay(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec;
    return Instant.ofEpochSecond(epochSecond, nanos);
  }

  private static long daysInMonth(long y, long m) {
    if (m == 2) {
      boolean leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
      return leap ? 29 : 28;
    }
    return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
  static long epochDay(long y, long m, long d) {
    y -= m <= 2 ? 1 : 0;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097 + doe - 719_468;
  }
}
