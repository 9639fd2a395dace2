package org.braid.matchmaking;

import java.nio.charset.StandardCharsets;

/** HTCondor's value conversions (convertValueTo*Value) used by functions. */
final class Conversions {

  private Conversions() {}

  /**
   * string(): undefined stays undefined, error and unconvertible values give error, and so does a
   * list or ad whose text would be longer than the budget's string limit.
   */
  static Value toStringValue(Value v, Budget budget) {
    if (v instanceof Value.StringValue || v.isExceptional()) {
      return v;
    }
    if (v instanceof Value.BooleanValue b) {
      return Value.of(b.value() ? "true" : "false");
    }
    if (v instanceof Value.IntegerValue i) {
      return Value.of(Long.toString(i.value()));
    }
    if (v instanceof Value.RealValue r) {
      return Value.of(Unparser.real(r.value(), true));
    }
    if (v instanceof Value.AbsTimeValue t) {
      return Value.of(Times.absToString(t));
    }
    if (v instanceof Value.RelTimeValue t) {
      return Value.of(Times.relToString(t.seconds()));
    }
    try {
      return Value.of(Unparser.compatValue(v, budget.options.maxStringLength()));
    } catch (Unparser.TooLong e) {
      return budget.stringTooLong();
    }
  }

  /** C's cast of a double to long long on x86: out of range and NaN give LLONG_MIN. */
  static long castToLong(double d) {
    if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
      return Long.MIN_VALUE;
    }
    return (long) d;
  }

  /** C's cast of a double to int on x86: out of range and NaN give INT_MIN. */
  static int castToInt(double d) {
    if (Double.isNaN(d) || d >= 0x1p31 || d < -0x1p31) {
      return Integer.MIN_VALUE;
    }
    return (int) d;
  }

  static Value toIntegerValue(Value v) {
    if (v instanceof Value.IntegerValue || v.isExceptional()) {
      return v;
    }
    if (v instanceof Value.BooleanValue b) {
      return Value.of(b.value() ? 1L : 0L);
    }
    if (v instanceof Value.RealValue r) {
      return Value.of(castToLong(r.value()));
    }
    if (v instanceof Value.StringValue s) {
      Double d = strtod(s.value());
      return d == null ? Value.ERROR : Value.of(castToLong(d));
    }
    if (v instanceof Value.AbsTimeValue t) {
      return Value.of(t.epochSeconds());
    }
    if (v instanceof Value.RelTimeValue t) {
      return Value.of((long) castToInt(t.seconds()));
    }
    return Value.ERROR;
  }

  static Value toRealValue(Value v) {
    if (v instanceof Value.RealValue || v.isExceptional()) {
      return v;
    }
    if (v instanceof Value.BooleanValue b) {
      return Value.of(b.value() ? 1.0 : 0.0);
    }
    if (v instanceof Value.IntegerValue i) {
      return Value.of((double) i.value());
    }
    if (v instanceof Value.StringValue s) {
      Double d = strtod(s.value());
      return d == null ? Value.ERROR : Value.of(d);
    }
    if (v instanceof Value.AbsTimeValue t) {
      return Value.of((double) t.epochSeconds());
    }
    if (v instanceof Value.RelTimeValue t) {
      return Value.of((double) castToInt(t.seconds())); // HTCondor reads whole seconds here
    }
    return Value.ERROR;
  }

  /** The longest prefix C's strtod accepts, or null when there is none. */
  static Double strtod(String s) {
    int p = 0;
    int n = s.length();
    while (p < n && isSpace(s.charAt(p))) {
      p++;
    }
    int start = p;
    boolean neg = false;
    if (p < n && (s.charAt(p) == '+' || s.charAt(p) == '-')) {
      neg = s.charAt(p) == '-';
      p++;
    }
    String rest = s.substring(p).toLowerCase(java.util.Locale.ROOT);
    if (rest.startsWith("inf")) {
      return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (rest.startsWith("nan")) {
      return Double.NaN;
    }
    if (rest.startsWith("0x")) {
      int q = 2;
      long mant = 0;
      boolean any = false;
      int exp = 0;
      boolean overflow = false;
      while (q < rest.length() && Character.digit(rest.charAt(q), 16) >= 0) {
        if (mant >>> 56 == 0) {
          mant = mant * 16 + Character.digit(rest.charAt(q), 16);
        } else {
          exp += 4;
          overflow = true;
        }
        any = true;
        q++;
      }
      if (q < rest.length() && rest.charAt(q) == '.') {
        q++;
        while (q < rest.length() && Character.digit(rest.charAt(q), 16) >= 0) {
          if (mant >>> 56 == 0) {
            mant = mant * 16 + Character.digit(rest.charAt(q), 16);
            exp -= 4;
          }
          any = true;
          q++;
        }
      }
      if (!any) {
        return neg ? -0.0 : 0.0; // "0x" reads as the 0
      }
      if (q < rest.length() && rest.charAt(q) == 'p') {
        int r = q + 1;
        boolean eneg = false;
        if (r < rest.length() && (rest.charAt(r) == '+' || rest.charAt(r) == '-')) {
          eneg = rest.charAt(r) == '-';
          r++;
        }
        int e = 0;
        boolean edig = false;
        while (r < rest.length() && Character.isDigit(rest.charAt(r))) {
          e = Math.min(100000, e * 10 + (rest.charAt(r) - '0'));
          edig = true;
          r++;
        }
        if (edig) {
          exp += eneg ? -e : e;
        }
      }
      double d = Math.scalb((double) mant, exp);
      if (overflow && d == 0) {
        d = 0;
      }
      return neg ? -d : d;
    }
    int q = p;
    boolean digits = false;
    while (q < n && Character.isDigit(s.charAt(q)) && s.charAt(q) < 128) {
      q++;
      digits = true;
    }
    if (q < n && s.charAt(q) == '.') {
      q++;
      while (q < n && Character.isDigit(s.charAt(q)) && s.charAt(q) < 128) {
        q++;
        digits = true;
      }
    }
    if (!digits) {
      return null;
    }
    int mantEnd = q;
    if (q < n && (s.charAt(q) == 'e' || s.charAt(q) == 'E')) {
      int r = q + 1;
      if (r < n && (s.charAt(r) == '+' || s.charAt(r) == '-')) {
        r++;
      }
      int d0 = r;
      while (r < n && Character.isDigit(s.charAt(r)) && s.charAt(r) < 128) {
        r++;
      }
      if (r > d0) {
        mantEnd = r;
      }
    }
    String num = s.substring(start, mantEnd);
    if (num.endsWith(".") || num.startsWith(".") || num.contains("-.") || num.contains("+.")) {
      num = num.replace("-.", "-0.").replace("+.", "+0.");
      if (num.startsWith(".")) {
        num = "0" + num;
      }
    }
    return Double.parseDouble(num);
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000b';
  }

  /** HTCondor's natural_cmp (strverscmp-like); returns C's raw differences, not just signs. */
  static int naturalCompare(String a, String b) {
    byte[] s1 = a.getBytes(StandardCharsets.UTF_8);
    byte[] s2 = b.getBytes(StandardCharsets.UTF_8);
    int i = 0;
    while (at(s1, i) != 0 && at(s1, i) == at(s2, i)) {
      i++;
    }
    if (at(s1, i) == at(s2, i)) {
      return 0;
    }
    int n1 = i;
    while (n1 > 0 && isDigit(at(s1, n1 - 1))) {
      n1--;
    }
    int n2 = i - (i - n1);
    if (n1 == i && (!isDigit(at(s1, i)) || !isDigit(at(s2, i)))) {
      return at(s1, i) - at(s2, i);
    }
    int z1 = n1;
    while (at(s1, z1) == '0') {
      z1++;
    }
    int z2 = n2;
    while (at(s2, z2) == '0') {
      z2++;
    }
    if (z1 > n1 && !isDigit(at(s1, z1))) {
      z1--;
    }
    if (z2 > n2 && !isDigit(at(s2, z2))) {
      z2--;
    }
    if (z1 - n1 != z2 - n2) {
      return (z2 - n2) - (z1 - n1);
    }
    if (z1 > n1) {
      return at(s1, i) - at(s2, i);
    }
    int e1 = z1;
    while (isDigit(at(s1, e1))) {
      e1++;
    }
    int e2 = z2;
    while (isDigit(at(s2, e2))) {
      e2++;
    }
    if (e1 - n1 != e2 - n2) {
      return (e1 - n1) - (e2 - n2);
    }
    return at(s1, i) - at(s2, i);
  }

  private static int at(byte[] s, int i) {
    return i < s.length ? s[i] : 0; // C's char is signed on x86
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }
}
