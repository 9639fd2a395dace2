package org.braid.matchmaking;

import java.util.List;

/**
 * Numeric and conversion functions: bool, floor, ceiling, round, pow, quantize, absTime, relTime.
 * Each follows HTCondor's fnCall.cpp.
 */
final class MathFunctions {

  private MathFunctions() {}

  static Value toBool(Value v) {
    if (v instanceof Value.UndefinedValue || v instanceof Value.BooleanValue) {
      return v;
    }
    if (v instanceof Value.IntegerValue i) {
      return Value.of(i.value() != 0);
    }
    if (v instanceof Value.RealValue r) {
      return Value.of(r.value() != 0.0);
    }
    if (v instanceof Value.StringValue s) {
      if (s.value().equalsIgnoreCase("false")) {
        return Value.FALSE;
      }
      if (s.value().equalsIgnoreCase("true")) {
        return Value.TRUE;
      }
      return Value.UNDEFINED;
    }
    if (v instanceof Value.RelTimeValue t) {
      return Value.of((long) t.seconds() != 0);
    }
    return Value.ERROR;
  }

  static Value round(Evaluator ev, List<Expr> a, Env env, String name) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value v = ev.eval(a.get(0), env);
    if (v instanceof Value.IntegerValue) {
      return v;
    }
    if (!(Conversions.toRealValue(v) instanceof Value.RealValue r)) {
      return Value.ERROR;
    }
    double d = r.value();
    switch (name) {
      case "floor":
        return Value.of(Conversions.castToLong(Math.floor(d)));
      case "round":
        return Value.of(Conversions.castToLong(Math.rint(d)));
      default:
        return Value.of(Conversions.castToLong(Math.ceil(d)));
    }
  }

  static Value pow(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.IntegerValue xi
        && y instanceof Value.IntegerValue yi
        && yi.value() >= 0) {
      return Value.of(
          Conversions.castToLong(Math.pow((double) xi.value(), (double) yi.value()) + 0.5));
    }
    if (!(Conversions.toRealValue(x) instanceof Value.RealValue rx)
        || !(Conversions.toRealValue(y) instanceof Value.RealValue ry)) {
      return Value.ERROR;
    }
    return Value.of(cPow(rx.value(), ry.value()));
  }

  /** C's pow, which HTCondor calls: unlike Math.pow, 1 to any power and -1 to ±inf are 1. */
  static double cPow(double x, double y) {
    if (x == 1.0 || (x == -1.0 && Double.isInfinite(y))) {
      return 1.0;
    }
    return Math.pow(x, y);
  }

  static Value quantize(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value arg = ev.eval(a.get(0), env);
    Value arg2 = ev.eval(a.get(1), env);
    if (!(Conversions.toRealValue(arg) instanceof Value.RealValue rv)) {
      return Value.ERROR;
    }
    double rval = rv.value();
    double rbase;
    if (arg2 instanceof Value.ListValue list) {
      Value base = Value.of(0.0);
      rbase = 0.0;
      for (Expr item : list.items()) {
        base = ev.eval(item, list.env);
        if (!(Conversions.toRealValue(base) instanceof Value.RealValue rb)) {
          return Value.ERROR;
        }
        rbase = rb.value();
        if (rbase >= rval) {
          return base;
        }
      }
      arg2 = base;
    } else {
      if (!(Conversions.toRealValue(arg2) instanceof Value.RealValue rb)) {
        return Value.ERROR;
      }
      rbase = rb.value();
    }
    if (arg2 instanceof Value.IntegerValue ib) {
      long ibase = ib.value();
      if (ibase == 0) {
        return arg;
      }
      if (arg instanceof Value.IntegerValue iv) {
        return Value.of(((iv.value() + ibase - 1) / ibase) * ibase);
      }
      return Value.of(Math.ceil(rval / ibase) * ibase);
    }
    if (rbase >= -1e-8 && rbase <= 1e-8) {
      return arg;
    }
    return Value.of(Math.ceil(rval / rbase) * rbase);
  }

  static Value convTime(Evaluator ev, List<Expr> a, Env env, boolean relative) {
    if (a.isEmpty() && !relative) {
      return new Value.AbsTimeValue(ev.options.clock().instant().getEpochSecond(), 0);
    }
    if (a.isEmpty() || a.size() > 2) {
      return Value.ERROR;
    }
    if (a.get(0) instanceof Expr.Literal lit && lit.value() instanceof Value.StringValue s) {
      // HTCondor turns a string argument into a time literal at parse time.
      if (relative) {
        // HTCondor's parse-time relTime literal reports itself as a real
        Double secs = s.value().isBlank() ? Double.valueOf(0) : Times.parseRel(s.value());
        return secs == null ? Value.ERROR : Value.of((double) secs);
      }
      Value.AbsTimeValue t = Times.parseAbs(s.value());
      return t == null ? Value.ERROR : t;
    }
    Value v = ev.eval(a.get(0), env);
    Integer offset = null;
    if (a.size() == 2) {
      Value o = ev.eval(a.get(1), env);
      if (relative) {
        return Value.ERROR;
      } else if (o instanceof Value.IntegerValue oi) {
        offset = (int) oi.value();
      } else if (o instanceof Value.RealValue or) {
        offset = (int) or.value();
      } else if (o instanceof Value.RelTimeValue ot) {
        offset = (int) (long) ot.seconds();
      } else {
        return Value.ERROR;
      }
    }
    int off = offset == null ? 0 : offset;
    if (v instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (v instanceof Value.IntegerValue i) {
      int secs = (int) i.value();
      return relative ? new Value.RelTimeValue(secs) : new Value.AbsTimeValue(secs, off);
    }
    if (v instanceof Value.RealValue r) {
      return relative
          ? new Value.RelTimeValue(r.value())
          : new Value.AbsTimeValue(Conversions.castToInt(r.value()), off);
    }
    if (v instanceof Value.StringValue) {
      // HTCondor's switch falls through here: absTime returns the string, relTime reads
      // an uninitialised number (0 in practice)
      return relative ? new Value.RelTimeValue(0) : v;
    }
    if (v instanceof Value.AbsTimeValue t) {
      return relative ? new Value.RelTimeValue(t.epochSeconds()) : t;
    }
    if (v instanceof Value.RelTimeValue t) {
      return relative ? t : new Value.AbsTimeValue((long) t.seconds(), off);
    }
    return Value.ERROR;
  }
}
