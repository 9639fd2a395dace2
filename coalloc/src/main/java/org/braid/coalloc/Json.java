package org.braid.coalloc;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** JSON literals for the journal and reports (string escaping is Jackson's). */
final class Json {
  private Json() {}

  static String str(String s) {
    if (s == null) {
      return "null";
    }
    return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
  }

  /**
   * Appends {@code s} as a JSON string literal (as {@link #str}): as it is, quoted, when it has
   * nothing to escape, which is the case of almost every path, hash and URL of a report (a report
   * of 1,000 files is written at the job's end, from code that has not been compiled yet).
   */
  static StringBuilder str(StringBuilder sb, String s) {
    if (s == null) {
      return sb.append("null");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') {
        return sb.append(str(s));
      }
    }
    return sb.append('"').append(s).append('"');
  }

  /**
   * Appends a number of at most three decimals (a time in seconds rounded to milliseconds, say) as
   * {@link #num} writes it, without the general conversion of a double to text where it can.
   */
  static StringBuilder num3(StringBuilder sb, double d) {
    long m = Math.round(d * 1000);
    if (!(Math.abs(d) >= 1e-3 && Math.abs(d) < 1e7) || m / 1000.0 != d || d == Math.rint(d)) {
      return sb.append(num(d)); // not three decimals, or where Double.toString differs
    }
    if (m < 0) {
      sb.append('-');
      m = -m;
    }
    sb.append(m / 1000).append('.');
    int f = (int) (m % 1000); // not 0: d is not whole
    sb.append((char) ('0' + f / 100));
    if (f % 100 != 0) {
      sb.append((char) ('0' + f / 10 % 10));
      if (f % 10 != 0) {
        sb.append((char) ('0' + f % 10));
      }
    }
    return sb;
  }

  /** A finite number, or null for NaN and infinities. */
  static String num(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "null";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
