package org.braid.matchmaking;

import org.braid.matchmaking.Expr.BinaryOp;
import org.braid.matchmaking.Value.AbsTimeValue;
import org.braid.matchmaking.Value.BooleanValue;
import org.braid.matchmaking.Value.ClassAdValue;
import org.braid.matchmaking.Value.ErrorValue;
import org.braid.matchmaking.Value.IntegerValue;
import org.braid.matchmaking.Value.ListValue;
import org.braid.matchmaking.Value.RealValue;
import org.braid.matchmaking.Value.RelTimeValue;
import org.braid.matchmaking.Value.StringValue;
import org.braid.matchmaking.Value.UndefinedValue;

/** The operators on values, following HTCondor's operators.cpp case by case. */
final class Ops {

  private Ops() {}

  /** Boolean equivalent of a value: booleans, and numbers compared with zero; else null. */
  static Boolean boolEquiv(Value v) {
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    if (v instanceof IntegerValue i) {
      return i.value() != 0;
    }
    if (v instanceof RealValue r) {
      return r.value() != 0.0;
    }
    return null;
  }

  /** {@code &&} and {@code ||} once both sides are known (the left did not short-circuit). */
  static Value logical(BinaryOp op, Value v1, Value v2) {
    Boolean b1 = boolEquiv(v1);
    Boolean b2 = boolEquiv(v2);
    if (b1 == null && !v1.isExceptional()) {
      return Value.ERROR;
    }
    if (b2 == null && !v2.isExceptional()) {
      return Value.ERROR;
    }
    if (op == BinaryOp.OR) {
      if (b1 != null && b1) {
        return Value.TRUE;
      } else if (v1 instanceof ErrorValue) {
        return Value.ERROR;
      } else if (b1 != null) {
        return b2 != null ? Value.of(b2) : v2;
      } else if (b2 == null) {
        return v2;
      } else {
        return b2 ? Value.TRUE : Value.UNDEFINED;
      }
    }
    if (b1 != null && !b1) {
      return Value.FALSE;
    } else if (v1 instanceof ErrorValue) {
      return Value.ERROR;
    } else if (b1 != null) {
      return b2 != null ? Value.of(b2) : v2;
    } else if (b2 == null) {
      return v2;
    } else {
      return !b2 ? Value.FALSE : Value.UNDEFINED;
    }
  }

  static Value not(Value v) {
    if (v.isExceptional()) {
      return v;
    }
    Boolean b = boolEquiv(v);
    return b == null ? Value.ERROR : Value.of(!b);
  }

  static Value minus(Value v) {
    if (v.isExceptional()) {
      return v;
    }
    if (v instanceof IntegerValue i) {
      return Value.of(-i.value());
    }
    if (v instanceof RealValue r) {
      return Value.of(-r.value());
    }
    if (v instanceof RelTimeValue t) {
      return new RelTimeValue(-t.seconds());
    }
    return Value.ERROR;
  }

  static Value plus(Value v) {
    if (v instanceof BooleanValue
        || v instanceof StringValue
        || v instanceof ListValue
        || v instanceof ClassAdValue
        || v instanceof AbsTimeValue) {
      return Value.ERROR;
    }
    return v;
  }

  static Value bitNot(Value v) {
    if (v.isExceptional()) {
      return v;
    }
    return v instanceof IntegerValue i ? Value.of(~i.value()) : Value.ERROR;
  }

  /** {@code =?=} and {@code =!=}: no type promotion, case-sensitive strings. */
  static Value meta(boolean equal, Value v1, Value v2) {
    boolean same;
    if (!sameType(v1, v2)) {
      same = false;
    } else if (v1.isExceptional()) {
      same = true;
    } else if (v1 instanceof ListValue || v1 instanceof ClassAdValue) {
      return Value.ERROR;
    } else if (v1 instanceof StringValue s1) {
      same = compareBytes(s1.value(), ((StringValue) v2).value()) == 0;
    } else if (v1 instanceof AbsTimeValue a1) {
      AbsTimeValue a2 = (AbsTimeValue) v2;
      same = a1.epochSeconds() == a2.epochSeconds() && a1.offsetSeconds() == a2.offsetSeconds();
    } else if (v1 instanceof RelTimeValue r1) {
      same = r1.seconds() == ((RelTimeValue) v2).seconds();
    } else if (v1 instanceof RealValue r1) {
      same = r1.value() == ((RealValue) v2).value();
    } else if (v1 instanceof IntegerValue i1) {
      same = i1.value() == ((IntegerValue) v2).value();
    } else {
      same = ((BooleanValue) v1).value() == ((BooleanValue) v2).value();
    }
    return Value.of(equal == same);
  }

  private static boolean sameType(Value a, Value b) {
    return a.getClass() == b.getClass();
  }

  /** Numeric view after HTCondor's promotion of booleans to integers. */
  private static Value promote(Value v) {
    if (v instanceof BooleanValue b) {
      return Value.of(b.value() ? 1L : 0L);
    }
    return v;
  }

  /** Strict comparisons {@code < <= == != >= >}; both operands are not exceptional. */
  static Value compare(BinaryOp op, Value v1, Value v2) {
    if (v1 instanceof ClassAdValue || v2 instanceof ClassAdValue) {
      return Value.ERROR;
    }
    if (v1 instanceof ListValue || v2 instanceof ListValue) {
      return Value.ERROR;
    }
    if (v1 instanceof StringValue || v2 instanceof StringValue) {
      if (!(v1 instanceof StringValue s1) || !(v2 instanceof StringValue s2)) {
        return Value.ERROR;
      }
      return Value.of(holds(op, compareIgnoreCase(s1.value(), s2.value())));
    }
    if (v1 instanceof AbsTimeValue || v2 instanceof AbsTimeValue) {
      if (!(v1 instanceof AbsTimeValue a1) || !(v2 instanceof AbsTimeValue a2)) {
        return Value.ERROR;
      }
      return Value.of(holds(op, Long.compare(a1.epochSeconds(), a2.epochSeconds())));
    }
    if (v1 instanceof RelTimeValue || v2 instanceof RelTimeValue) {
      if (!(v1 instanceof RelTimeValue r1) || !(v2 instanceof RelTimeValue r2)) {
        return Value.ERROR;
      }
      return Value.of(holdsReal(op, r1.seconds(), r2.seconds()));
    }
    Value p1 = promote(v1);
    Value p2 = promote(v2);
    if (p1 instanceof IntegerValue i1 && p2 instanceof IntegerValue i2) {
      return Value.of(holds(op, Long.compare(i1.value(), i2.value())));
    }
    return Value.of(holdsReal(op, toDouble(p1), toDouble(p2)));
  }

  private static double toDouble(Value v) {
    return v instanceof IntegerValue i ? (double) i.value() : ((RealValue) v).value();
  }

  private static boolean holds(BinaryOp op, int cmp) {
    switch (op) {
      case LESS:
        return cmp < 0;
      case LESS_OR_EQUAL:
        return cmp <= 0;
      case EQUAL:
        return cmp == 0;
      case NOT_EQUAL:
        return cmp != 0;
      case GREATER:
        return cmp > 0;
      default:
        return cmp >= 0;
    }
  }

  private static boolean holdsReal(BinaryOp op, double a, double b) {
    switch (op) {
      case LESS:
        return a < b;
      case LESS_OR_EQUAL:
        return a <= b;
      case EQUAL:
        return a == b;
      case NOT_EQUAL:
        return a != b;
      case GREATER:
        return a > b;
      default:
        return a >= b;
    }
  }

  /** C's strcmp on the UTF-8 bytes (Java's compareTo differs beyond the BMP). */
  static int compareBytes(String a, String b) {
    if (isAscii(a) && isAscii(b)) {
      return Integer.signum(a.compareTo(b));
    }
    byte[] x = a.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] y = b.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int n = Math.min(x.length, y.length);
    for (int k = 0; k < n; k++) {
      int c = (x[k] & 0xff) - (y[k] & 0xff);
      if (c != 0) {
        return Integer.signum(c);
      }
    }
    return Integer.compare(x.length, y.length);
  }

  /** C's strcasecmp: ASCII letters folded to lower case, bytewise. */
  static int compareIgnoreCase(String a, String b) {
    return compareBytes(asciiLower(a), asciiLower(b));
  }

  static String asciiLower(String s) {
    StringBuilder sb = null;
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c >= 'A' && c <= 'Z') {
        if (sb == null) {
          sb = new StringBuilder(s);
        }
        sb.setCharAt(k, (char) (c + 32));
      }
    }
    return sb == null ? s : sb.toString();
  }

  static String asciiUpper(String s) {
    StringBuilder sb = new StringBuilder(s);
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c >= 'a' && c <= 'z') {
        sb.setCharAt(k, (char) (c - 32));
      }
    }
    return sb.toString();
  }

  private static boolean isAscii(String s) {
    for (int k = 0; k < s.length(); k++) {
      if (s.charAt(k) >= 128) {
        return false;
      }
    }
    return true;
  }

  private static boolean isArithmetic(Value v) {
    return v instanceof IntegerValue
        || v instanceof RealValue
        || v instanceof AbsTimeValue
        || v instanceof RelTimeValue
        || v instanceof BooleanValue;
  }

  /** {@code + - * / %} on non-exceptional operands. */
  static Value arithmetic(BinaryOp op, Value v1, Value v2) {
    if (!isArithmetic(v1) || !isArithmetic(v2)) {
      return Value.ERROR;
    }
    if (v1 instanceof AbsTimeValue
        || v2 instanceof AbsTimeValue
        || v1 instanceof RelTimeValue
        || v2 instanceof RelTimeValue) {
      return time(op, v1, v2);
    }
    Value p1 = promote(v1);
    Value p2 = promote(v2);
    if (p1 instanceof IntegerValue a && p2 instanceof IntegerValue b) {
      return integer(op, a.value(), b.value());
    }
    double r1 = toDouble(p1);
    double r2 = toDouble(p2);
    double comp;
    switch (op) {
      case ADD:
        comp = r1 + r2;
        break;
      case SUBTRACT:
        comp = r1 - r2;
        break;
      case MULTIPLY:
        comp = r1 * r2;
        break;
      case DIVIDE:
        comp = r1 / r2;
        break;
      default:
        return Value.ERROR;
    }
    // HTCondor turns a result of +HUGE_VAL (positive infinity) into error; -inf passes.
    return comp == Double.POSITIVE_INFINITY ? Value.ERROR : Value.of(comp);
  }

  private static Value integer(BinaryOp op, long a, long b) {
    switch (op) {
      case ADD:
        return Value.of(a + b);
      case SUBTRACT:
        return Value.of(a - b);
      case MULTIPLY:
        return Value.of(a * b);
      case DIVIDE:
        if (a == Long.MIN_VALUE && b == -1) {
          return Value.of(Long.MAX_VALUE);
        }
        return b == 0 ? Value.ERROR : Value.of(a / b);
      default:
        if (a == Long.MIN_VALUE && b == -1) {
          return Value.of(0L);
        }
        return b == 0 ? Value.ERROR : Value.of(a % b);
    }
  }

  private static Value time(BinaryOp op, Value v1, Value v2) {
    if (v1 instanceof BooleanValue || v2 instanceof BooleanValue) {
      return Value.ERROR;
    }
    if (op == BinaryOp.ADD) {
      if (v1 instanceof AbsTimeValue a && v2 instanceof RelTimeValue r) {
        return new AbsTimeValue(a.epochSeconds() + (int) r.seconds(), a.offsetSeconds());
      }
      if (v1 instanceof RelTimeValue r && v2 instanceof AbsTimeValue a) {
        return new AbsTimeValue(a.epochSeconds() + (int) r.seconds(), a.offsetSeconds());
      }
      if (v1 instanceof RelTimeValue r1 && v2 instanceof RelTimeValue r2) {
        return new RelTimeValue(r1.seconds() + r2.seconds());
      }
    } else if (op == BinaryOp.SUBTRACT) {
      if (v1 instanceof AbsTimeValue a1 && v2 instanceof AbsTimeValue a2) {
        return new RelTimeValue(a1.epochSeconds() - a2.epochSeconds());
      }
      if (v1 instanceof AbsTimeValue a && v2 instanceof RelTimeValue r) {
        return new AbsTimeValue(a.epochSeconds() - (int) r.seconds(), a.offsetSeconds());
      }
      if (v1 instanceof RelTimeValue r1 && v2 instanceof RelTimeValue r2) {
        return new RelTimeValue(r1.seconds() - r2.seconds());
      }
    } else if (op == BinaryOp.MULTIPLY || op == BinaryOp.DIVIDE) {
      boolean mul = op == BinaryOp.MULTIPLY;
      if (v1 instanceof RelTimeValue r && v2 instanceof IntegerValue n) {
        return new RelTimeValue(mul ? r.seconds() * n.value() : r.seconds() / n.value());
      }
      if (v1 instanceof RelTimeValue r && v2 instanceof RealValue n) {
        return new RelTimeValue(mul ? r.seconds() * n.value() : r.seconds() / n.value());
      }
      if (mul && v1 instanceof IntegerValue n && v2 instanceof RelTimeValue r) {
        return new RelTimeValue(n.value() * r.seconds());
      }
      // HTCondor reads real * reltime with the operands swapped and multiplies by zero.
      if (mul && v1 instanceof RealValue && v2 instanceof RelTimeValue) {
        return new RelTimeValue(0.0);
      }
    }
    return Value.ERROR;
  }

  /** Bitwise operators and shifts on integers. */
  static Value bitwise(BinaryOp op, Value v1, Value v2) {
    if (!(v1 instanceof IntegerValue a) || !(v2 instanceof IntegerValue b)) {
      return Value.ERROR;
    }
    long i1 = a.value();
    long i2 = b.value();
    switch (op) {
      case BITWISE_OR:
        return Value.of(i1 | i2);
      case BITWISE_AND:
        return Value.of(i1 & i2);
      case BITWISE_XOR:
        return Value.of(i1 ^ i2);
      case LEFT_SHIFT:
        return Value.of(i1 << i2);
      case RIGHT_SHIFT:
        if (i1 >= 0) {
          return Value.of(i1 >> i2);
        }
        return Value.of(i2 <= 0 ? i1 : i1 >> Math.min(i2, 63));
      default:
        if (i1 >= 0) {
          return Value.of(i1 >> i2);
        }
        return Value.of(((i1 >> 1) & Long.MAX_VALUE) >> (i2 - 1));
    }
  }

  static boolean isUndefined(Value v) {
    return v instanceof UndefinedValue;
  }
}
