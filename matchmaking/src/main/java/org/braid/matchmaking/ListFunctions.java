package org.braid.matchmaking;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.braid.matchmaking.Expr.BinaryOp;

/**
 * List functions: member, size, sum, avg, min, max, anyCompare, allCompare. Each follows HTCondor's
 * fnCall.cpp.
 */
final class ListFunctions {

  private ListFunctions() {}

  static Value member(Evaluator ev, List<Expr> a, Env env, boolean identical) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value l = ev.eval(a.get(1), env);
    if (l instanceof Value.UndefinedValue || (!identical && x instanceof Value.UndefinedValue)) {
      return Value.UNDEFINED;
    }
    if (!(l instanceof Value.ListValue list)
        || x instanceof Value.ListValue
        || x instanceof Value.ClassAdValue) {
      return Value.ERROR;
    }
    if (!identical && x instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    for (Expr item : list.items()) {
      Value e = ev.eval(item, list.env);
      Value r = identical ? Ops.meta(true, e, x) : Functions.strictCompare(BinaryOp.EQUAL, e, x);
      if (r instanceof Value.BooleanValue b && b.value()) {
        return Value.TRUE;
      }
    }
    return Value.FALSE;
  }

  static Value size(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value v = ev.eval(a.get(0), env);
    if (v instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (v instanceof Value.ListValue l) {
      return Value.of((long) l.size());
    }
    if (v instanceof Value.ClassAdValue c) {
      return Value.of((long) c.ad().size());
    }
    if (v instanceof Value.StringValue s) {
      return Value.of((long) s.value().getBytes(StandardCharsets.UTF_8).length);
    }
    return Value.ERROR;
  }

  static Value listArg(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value v = ev.eval(a.get(0), env);
    if (v instanceof Value.UndefinedValue || v instanceof Value.ListValue) {
      return v;
    }
    return Value.ERROR;
  }

  static boolean isNumber(Value v) {
    // HTCondor 25 accepts booleans here (Value::IsNumber)
    return v instanceof Value.IntegerValue
        || v instanceof Value.RealValue
        || v instanceof Value.BooleanValue;
  }

  static Value sumAvg(Evaluator ev, List<Expr> a, Env env, boolean sum) {
    Value v = listArg(ev, a, env);
    if (!(v instanceof Value.ListValue list)) {
      return v;
    }
    Value result = Value.of(0L);
    boolean first = true;
    int len = 0;
    for (Expr item : list.items()) {
      Value e = ev.eval(item, list.env);
      if (e instanceof Value.UndefinedValue) {
        continue; // HTCondor 25 skips undefined elements
      }
      if (!isNumber(e)) {
        return Value.ERROR;
      }
      len++;
      result = first ? e : Ops.arithmetic(BinaryOp.ADD, result, e);
      first = false;
    }
    if (sum || len == 0) {
      return result; // HTCondor's avg({}) is 0, not undefined
    }
    return strictArithmetic(BinaryOp.DIVIDE, result, Value.of((double) len));
  }

  static Value strictArithmetic(BinaryOp op, Value v1, Value v2) {
    if (v1 instanceof Value.ErrorValue || v2 instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    if (v1 instanceof Value.UndefinedValue || v2 instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    return Ops.arithmetic(op, v1, v2);
  }

  static Value minMax(Evaluator ev, List<Expr> a, Env env, boolean min) {
    Value v = listArg(ev, a, env);
    if (!(v instanceof Value.ListValue list)) {
      return v;
    }
    Value result = Value.UNDEFINED;
    int count = 0;
    boolean anyReal = false;
    for (Expr item : list.items()) {
      Value e = ev.eval(item, list.env);
      if (e instanceof Value.UndefinedValue) {
        continue;
      }
      if (!isNumber(e)) {
        return Value.ERROR;
      }
      anyReal |= e instanceof Value.RealValue;
      if (count++ == 0) {
        result = e;
      } else {
        Value cmp = Functions.strictCompare(min ? BinaryOp.LESS : BinaryOp.GREATER, e, result);
        if (cmp instanceof Value.BooleanValue b && b.value()) {
          result = e;
        }
      }
    }
    if (count > 1) {
      // HTCondor 25 gives the bound in the widest type it met: real, else integer
      result = anyReal ? Conversions.toRealValue(result) : Conversions.toIntegerValue(result);
    }
    return result;
  }

  static Value listCompare(Evaluator ev, List<Expr> a, Env env, boolean all) {
    if (a.size() != 3) {
      return Value.ERROR;
    }
    Value opv = ev.eval(a.get(0), env);
    if (opv instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(opv instanceof Value.StringValue ops)) {
      return Value.ERROR;
    }
    BinaryOp op;
    switch (ops.value()) {
      case "<":
        op = BinaryOp.LESS;
        break;
      case "<=":
        op = BinaryOp.LESS_OR_EQUAL;
        break;
      case "!=":
        op = BinaryOp.NOT_EQUAL;
        break;
      case "==":
        op = BinaryOp.EQUAL;
        break;
      case ">":
        op = BinaryOp.GREATER;
        break;
      case ">=":
        op = BinaryOp.GREATER_OR_EQUAL;
        break;
      case "is":
        op = BinaryOp.IS;
        break;
      case "isnt":
        op = BinaryOp.ISNT;
        break;
      default:
        return Value.ERROR;
    }
    Value lv = ev.eval(a.get(1), env);
    if (lv instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(lv instanceof Value.ListValue list)) {
      return Value.ERROR;
    }
    Value target = ev.eval(a.get(2), env);
    for (Expr item : list.items()) {
      Value r = Functions.strictCompare(op, ev.eval(item, list.env), target);
      if (!(r instanceof Value.BooleanValue b)) {
        return r instanceof Value.UndefinedValue ? Value.FALSE : Value.ERROR;
      }
      if (b.value() && !all) {
        return Value.TRUE;
      }
      if (!b.value() && all) {
        return Value.FALSE;
      }
    }
    return Value.of(all);
  }
}
