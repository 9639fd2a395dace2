package org.braid.matchmaking;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
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

  private final boolean compat;
  private final StringBuilder sb = new StringBuilder();

  private Unparser(boolean compat) {
    this.compat = compat;
  }

  static String expr(Expr e) {
    Unparser u = new Unparser(false);
    u.write(e);
    return u.sb.toString();
  }

  static String value(Value v) {
    Unparser u = new Unparser(false);
    u.writeValue(v);
    return u.sb.toString();
  }

  static String ad(ClassAd ad) {
    Unparser u = new Unparser(false);
    u.writeAd(ad);
    return u.sb.toString();
  }

  static String compatExpr(Expr e) {
    Unparser u = new Unparser(true);
    u.write(e);
    return u.sb.toString();
  }

  static String compatValue(Value v) {
    Unparser u = new Unparser(true);
    u.writeValue(v);
    return u.sb.toString();
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

  private void write(Expr e) {
    if (e instanceof Expr.Literal l) {
      writeScalar(l.value());
    } else if (e instanceof Expr.AttrRef r) {
      if (r.scope() != null) {
        write(r.scope());
        sb.append('.');
      } else if (r.absolute()) {
        sb.append('.');
      }
      name(r.name());
    } else if (e instanceof Expr.Binary b) {
      write(b.left());
      sb.append(' ').append(b.op().symbol()).append(' ');
      write(b.right());
    } else if (e instanceof Expr.Unary u) {
      sb.append(' ').append(u.op().symbol());
      write(u.operand());
    } else if (e instanceof Expr.Paren p) {
      sb.append('(');
      write(p.inner());
      sb.append(')');
    } else if (e instanceof Expr.Conditional c) {
      write(c.condition());
      sb.append(" ? ");
      write(c.ifTrue());
      sb.append(" : ");
      write(c.ifFalse());
    } else if (e instanceof Expr.Subscript s) {
      write(s.base());
      sb.append('[');
      write(s.index());
      sb.append(']');
    } else if (e instanceof Expr.Call c) {
      sb.append(c.name()).append('(');
      for (int k = 0; k < c.args().size(); k++) {
        if (k > 0) {
          sb.append(',');
        }
        write(c.args().get(k));
      }
      sb.append(')');
    } else if (e instanceof Expr.ListExpr l) {
      writeList(l.items());
    } else if (e instanceof Expr.AdExpr a) {
      writeAd(a.ad());
    }
  }

  private void writeList(List<Expr> items) {
    sb.append("{ ");
    for (int k = 0; k < items.size(); k++) {
      if (k > 0) {
        sb.append(',');
      }
      write(items.get(k));
    }
    sb.append(" }");
  }

  private void writeAd(ClassAd ad) {
    sb.append("[ ");
    List<String> names = ad.names();
    for (int k = 0; k < names.size(); k++) {
      if (k > 0) {
        sb.append("; ");
      }
      name(names.get(k));
      sb.append(" = ");
      write(ad.lookup(names.get(k)));
    }
    sb.append(" ]");
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
