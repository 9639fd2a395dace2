package org.braid.matchmaking;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes expressions and values in HTCondor's compact syntax ({@code [ a = 1; b = { 1,2 } ]}).
 *
 * <p>Two flavours differ only in reals: {@link #compat} prints {@code %.15E} exactly as HTCondor's
 * library does (used by the {@code string()} and {@code unparse()} functions), the public flavour
 * adds a digit when 16 significant digits would not read back to the same double.
 */
final class Unparser {

  private static final Set<String> RESERVED =
      Set.of("true", "false", "undefined", "error", "is", "isnt", "parent");

  /** Thrown when the text would exceed the length limit; no stack trace. */
  static final class TooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLong() {
      super("unparsed text too long", null, false, false);
    }
  }

  /** An attribute name still to be written (quoted if it is not a plain name). */
  private record Name(String text) {}

  private final boolean compat;
  private final int maxLength;
  private final StringBuilder sb;
  // What is still to be written, next first: strings as they are, expressions, values, ads and
  // names. An explicit stack, so that no tree is too deep to write.
  private final ArrayDeque<Object> work = new ArrayDeque<>();

  private Unparser(boolean compat, int maxLength) {
    this(new StringBuilder(), compat, maxLength);
  }

  /** An unparser in the public flavour that appends to {@code sb} up to {@code maxLength}. */
  Unparser(StringBuilder sb, int maxLength) {
    this(sb, false, maxLength);
  }

  private Unparser(StringBuilder sb, boolean compat, int maxLength) {
    this.sb = sb;
    this.compat = compat;
    this.maxLength = maxLength;
  }

  static String expr(Expr e) {
    return new Unparser(false, Integer.MAX_VALUE).run(e).sb.toString();
  }

  static String value(Value v) {
    return new Unparser(false, Integer.MAX_VALUE).run(v).sb.toString();
  }

  static String ad(ClassAd ad) {
    return new Unparser(false, Integer.MAX_VALUE).run(ad).sb.toString();
  }

  /**
   * {@code e} as HTCondor's library writes it.
   *
   * @throws TooLong if the text would be longer than {@code maxLength}
   */
  static String compatExpr(Expr e, int maxLength) {
    return new Unparser(true, maxLength).run(e).sb.toString();
  }

  /**
   * {@code v} as HTCondor's library writes it.
   *
   * @throws TooLong if the text would be longer than {@code maxLength}
   */
  static String compatValue(Value v, int maxLength) {
    return new Unparser(true, maxLength).run(v).sb.toString();
  }

  /**
   * Appends {@code v}.
   *
   * @throws TooLong if the text would grow longer than the limit
   */
  void append(Value v) {
    run(v);
  }

  private Unparser run(Object first) {
    work.push(first);
    while (!work.isEmpty()) {
      Object o = work.pop();
      if (o instanceof String s) {
        sb.append(s);
      } else if (o instanceof Expr e) {
        write(e);
      } else if (o instanceof ClassAd ad) {
        writeAd(ad);
      } else if (o instanceof Name n) {
        name(n.text());
      } else {
        writeValue((Value) o);
      }
      if (sb.length() > maxLength) {
        throw new TooLong();
      }
    }
    return this;
  }

  private void writeValue(Value v) {
    if (v instanceof Value.ListValue l) {
      writeList(l.items());
    } else if (v instanceof Value.ClassAdValue c) {
      writeAd(c.ad());
    } else {
      writeScalar(v);
    }
  }

  /** Writes what comes first of {@code e} and pushes the rest, last part first. */
  private void write(Expr e) {
    if (e instanceof Expr.Literal l) {
      writeScalar(l.value());
    } else if (e instanceof Expr.AttrRef r) {
      if (r.scope() != null) {
        work.push(new Name(r.name()));
        work.push(".");
        work.push(r.scope());
        return;
      }
      if (r.absolute()) {
        sb.append('.');
      }
      name(r.name());
    } else if (e instanceof Expr.Binary b) {
      work.push(b.right());
      work.push(" " + b.op().symbol() + " ");
      work.push(b.left());
    } else if (e instanceof Expr.Unary u) {
      sb.append(' ').append(u.op().symbol());
      work.push(u.operand());
    } else if (e instanceof Expr.Paren p) {
      sb.append('(');
      work.push(")");
      work.push(p.inner());
    } else if (e instanceof Expr.Conditional c) {
      work.push(c.ifFalse());
      work.push(" : ");
      work.push(c.ifTrue());
      work.push(" ? ");
      work.push(c.condition());
    } else if (e instanceof Expr.Subscript s) {
      work.push("]");
      work.push(s.index());
      work.push("[");
      work.push(s.base());
    } else if (e instanceof Expr.Call c) {
      sb.append(c.name()).append('(');
      work.push(")");
      pushSeparated(c.args(), ",");
    } else if (e instanceof Expr.ListExpr l) {
      writeList(l.items());
    } else if (e instanceof Expr.AdExpr a) {
      writeAd(a.ad());
    }
  }

  /** Pushes {@code items} with {@code sep} between them, so that the first is written next. */
  private void pushSeparated(List<Expr> items, String sep) {
    for (int k = items.size() - 1; k >= 0; k--) {
      work.push(items.get(k));
      if (k > 0) {
        work.push(sep);
      }
    }
  }

  private void writeList(List<Expr> items) {
    sb.append("{ ");
    work.push(" }");
    pushSeparated(items, ",");
  }

  private void writeAd(ClassAd ad) {
    sb.append("[ ");
    work.push(" ]");
    List<String> names = ad.names();
    for (int k = names.size() - 1; k >= 0; k--) {
      work.push(ad.lookup(names.get(k)));
      work.push(" = ");
      work.push(new Name(names.get(k)));
      if (k > 0) {
        work.push("; ");
      }
    }
  }

  private void name(String n) {
    if (isPlainName(n)) {
      sb.append(n);
    } else {
      quote(n, '\'');
    }
  }

  static boolean isPlainName(String n) {
    if (n.isEmpty() || RESERVED.contains(n.toLowerCase(Locale.ROOT))) {
      return false;
    }
    char c0 = n.charAt(0);
    if (!(c0 < 128 && Character.isLetter(c0) || c0 == '_')) {
      return false;
    }
    for (int k = 1; k < n.length(); k++) {
      char c = n.charAt(k);
      if (!(c < 128 && Character.isLetterOrDigit(c) || c == '_')) {
        return false;
      }
    }
    return true;
  }

  private void writeScalar(Value v) {
    if (v instanceof Value.IntegerValue i) {
      sb.append(i.value());
    } else if (v instanceof Value.RealValue r) {
      sb.append(real(r.value(), compat));
    } else if (v instanceof Value.StringValue s) {
      quote(s.value(), '"');
    } else if (v instanceof Value.BooleanValue b) {
      sb.append(b.value());
    } else if (v instanceof Value.AbsTimeValue t) {
      sb.append("absTime(\"").append(Times.absToString(t)).append("\")");
    } else if (v instanceof Value.RelTimeValue t) {
      sb.append("relTime(\"").append(Times.relToString(t.seconds())).append("\")");
    } else {
      sb.append(v.typeName());
    }
  }

  /** A real as HTCondor writes it; with {@code compat} false, never loses precision. */
  static String real(double d, boolean compat) {
    if (Double.isNaN(d)) {
      return "real(\"NaN\")";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "real(\"INF\")" : "real(\"-INF\")";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    String s = scientific(d, 16);
    if (!compat && Double.parseDouble(s) != d) {
      s = scientific(d, 17);
    }
    return s;
  }

  /** C's {@code %.(digits-1)E}, correctly rounded from the exact binary value. */
  static String scientific(double d, int digits) {
    BigDecimal bd = new BigDecimal(d).round(new MathContext(digits, RoundingMode.HALF_EVEN));
    String unscaled = bd.unscaledValue().abs().toString();
    // pad to the requested digits (trailing zeros may have been stripped)
    StringBuilder m = new StringBuilder(unscaled);
    while (m.length() < digits) {
      m.append('0');
    }
    int exponent = unscaled.length() - 1 - bd.scale();
    StringBuilder out = new StringBuilder();
    if (bd.signum() < 0) {
      out.append('-');
    }
    out.append(m.charAt(0)).append('.').append(m, 1, digits);
    out.append('E').append(exponent < 0 ? '-' : '+');
    int ae = Math.abs(exponent);
    if (ae < 10) {
      out.append('0');
    }
    out.append(ae);
    return out.toString();
  }

  private void quote(String s, char q) {
    sb.append(q);
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      switch (c) {
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\b':
          sb.append("\\b");
          break;
        case '\f':
          sb.append("\\f");
          break;
        case '\u0007':
          sb.append("\\a");
          break;
        case '\u000b':
          sb.append("\\v");
          break;
        default:
          if (c == q) {
            sb.append('\\').append(c);
          } else if (c >= 32 && c < 127) {
            sb.append(c);
          } else {
            octal(s, k);
            if (Character.isHighSurrogate(c) && k + 1 < s.length()) {
              k++;
            }
          }
      }
    }
    sb.append(q);
  }

  /** Non-printable and non-ASCII characters as octal escapes of their UTF-8 bytes. */
  private void octal(String s, int k) {
    int cp = s.codePointAt(k);
    byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      String o = Integer.toOctalString(b & 0xff);
      sb.append('\\').append("000", 0, 3 - o.length()).append(o);
    }
  }
}
