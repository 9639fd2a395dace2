package org.braid.matchmaking;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text forms of absolute and relative times, as HTCondor writes and reads them. */
final class Times {

  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

  private static final Pattern ABS =
      Pattern.compile(
          "\\s*(\\d{4})-?(\\d{2})-?(\\d{2})[T ]?(\\d{2}):?(\\d{2}):?(\\d{2})"
              + "\\s*(Z|[+-]\\d{2}:?\\d{2})?\\s*");

  private static final Pattern REL =
      Pattern.compile("\\s*(-)?(?:(\\d+)\\+)?(?:(\\d+):)?(?:(\\d+):)?(\\d+(?:\\.\\d*)?)\\s*");

  private Times() {}

  /** "2020-01-01T00:00:00+02:00"; a zero offset is written "-00:00" as HTCondor does. */
  static String absToString(Value.AbsTimeValue t) {
    int off = t.offsetSeconds();
    LocalDateTime local =
        LocalDateTime.ofEpochSecond(
            t.epochSeconds(), 0, ZoneOffset.ofTotalSeconds(clampOffset(off)));
    int a = Math.abs(off);
    return ISO.format(local)
        + (off > 0 ? '+' : '-')
        + String.format("%02d:%02d", a / 3600, a / 60 % 60);
  }

  private static int clampOffset(int off) {
    return Math.max(-18 * 3600, Math.min(18 * 3600, off));
  }

  /** "[-][D+]HH:MM:SS" with leading zero parts left out, fractions dropped: "05", "01:05". */
  static String relToString(double seconds) {
    // HTCondor converts to a C int first; the most negative int stays negative after negation
    int s = Conversions.castToInt(seconds);
    StringBuilder sb = new StringBuilder();
    if (s < 0) {
      sb.append('-');
      s = -s;
    }
    int days = s / 86400;
    int hours = s % 86400 / 3600;
    int mins = s % 3600 / 60;
    int secs = s % 60;
    if (days != 0) {
      sb.append(days).append('+').append(String.format("%02d:%02d:%02d", hours, mins, secs));
    } else if (hours != 0) {
      sb.append(String.format("%02d:%02d:%02d", hours, mins, secs));
    } else if (mins != 0) {
      sb.append(String.format("%02d:%02d", mins, secs));
    } else {
      sb.append(String.format("%02d", secs));
    }
    return sb.toString();
  }

  /** Parses an ISO 8601 date-time; a missing zone means UTC. Null when it does not parse. */
  static Value.AbsTimeValue parseAbs(String s) {
    Matcher m = ABS.matcher(s);
    if (!m.matches()) {
      return null;
    }
    try {
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)),
              Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)),
              Integer.parseInt(m.group(6)));
      int off = 0;
      String z = m.group(7);
      if (z != null && !z.equals("Z")) {
        String digits = z.substring(1).replace(":", "");
        off =
            Integer.parseInt(digits.substring(0, 2)) * 3600
                + Integer.parseInt(digits.substring(2)) * 60;
        if (z.charAt(0) == '-') {
          off = -off;
        }
      }
      long epoch = local.toEpochSecond(ZoneOffset.ofTotalSeconds(clampOffset(off)));
      return new Value.AbsTimeValue(epoch, off);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Parses "[-][D+][HH:][MM:]SS[.fff]". Null when it does not parse. */
  static Double parseRel(String s) {
    Matcher m = REL.matcher(s);
    if (!m.matches()) {
      return null;
    }
    double total = Double.parseDouble(m.group(5));
    String[] parts = {m.group(2), m.group(3), m.group(4)};
    if (parts[1] != null && parts[2] != null) {
      total += Long.parseLong(parts[1]) * 3600.0 + Long.parseLong(parts[2]) * 60.0;
    } else if (parts[1] != null) {
      total += Long.parseLong(parts[1]) * 60.0;
    }
    if (parts[0] != null) {
      total += Long.parseLong(parts[0]) * 86400.0;
    }
    return m.group(1) != null ? -total : total;
  }
}
