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
