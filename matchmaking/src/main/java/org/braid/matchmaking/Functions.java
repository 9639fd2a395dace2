package org.braid.matchmaking;

import java.util.List;
import java.util.Locale;
import org.braid.matchmaking.Expr.BinaryOp;

/** The built-in functions, each following HTCondor's fnCall.cpp. Names are case-insensitive. */
final class Functions {

  private Functions() {}

  /** Calls {@code c}; the caller turns a failed argument into error, as HTCondor's functions do. */
  static Value call(Evaluator ev, Expr.Call c, Env env) {
    List<Expr> a = c.args();
    String name = c.name().toLowerCase(Locale.ROOT);
    switch (name) {
      case "isundefined":
      case "iserror":
      case "isstring":
      case "isinteger":
      case "isreal":
      case "isboolean":
      case "islist":
      case "isclassad":
      case "isabstime":
      case "isreltime":
        return a.size() != 1 ? Value.ERROR : isType(name, ev.eval(a.get(0), env));
      case "ifthenelse":
        return ifThenElse(ev, a, env);
      case "member":
      case "identicalmember":
        return ListFunctions.member(ev, a, env, name.equals("identicalmember"));
      case "size":
        return ListFunctions.size(ev, a, env);
      case "sum":
      case "avg":
        return ListFunctions.sumAvg(ev, a, env, name.equals("sum"));
      case "min":
      case "max":
        return ListFunctions.minMax(ev, a, env, name.equals("min"));
      case "anycompare":
      case "allcompare":
        return ListFunctions.listCompare(ev, a, env, name.equals("allcompare"));
      case "strcat":
      case "join":
        return StringFunctions.strcat(ev, a, env, name.equals("join"));
      case "toupper":
      case "tolower":
        return StringFunctions.changeCase(ev, a, env, name.equals("tolower"));
      case "substr":
        return StringFunctions.substr(ev, a, env);
      case "strcmp":
      case "stricmp":
        return StringFunctions.strcmp(ev, a, env, name.equals("stricmp"));
      case "versioncmp":
        return StringFunctions.versioncmp(ev, a, env);
      case "regexp":
        return RegexFunctions.regexp(ev, a, env);
      case "regexps":
      case "replace":
      case "replaceall":
        return RegexFunctions.substitute(ev, a, env, name);
      case "regexpmember":
        return RegexFunctions.regexpMember(ev, a, env);
      case "int":
        return a.size() != 1 ? Value.ERROR : Conversions.toIntegerValue(ev.eval(a.get(0), env));
      case "real":
        return a.size() != 1 ? Value.ERROR : Conversions.toRealValue(ev.eval(a.get(0), env));
      case "string":
        return a.size() != 1
            ? Value.ERROR
            : Conversions.toStringValue(ev.eval(a.get(0), env), ev.budget);
      case "bool":
        return a.size() != 1 ? Value.ERROR : MathFunctions.toBool(ev.eval(a.get(0), env));
      case "floor":
      case "ceil":
      case "ceiling":
      case "round":
        return MathFunctions.round(ev, a, env, name);
      case "pow":
        return MathFunctions.pow(ev, a, env);
      case "quantize":
        return MathFunctions.quantize(ev, a, env);
      case "time":
        return a.isEmpty() ? Value.of(ev.options.clock().instant().getEpochSecond()) : Value.ERROR;
      case "abstime":
      case "reltime":
        return MathFunctions.convTime(ev, a, env, name.equals("reltime"));
      case "interval":
        return StringFunctions.interval(ev, a, env);
      case "unparse":
        return StringFunctions.unparse(ev, a, env);
      case "eval":
        return StringFunctions.evalString(ev, a, env);
      case "stringlistmember":
        return StringFunctions.stringListMember(ev, a, env);
      case "stringlistsintersect":
        return StringFunctions.stringListsIntersect(ev, a, env);
      default:
        return Value.ERROR;
    }
  }

  private static Value isType(String name, Value v) {
    switch (name) {
      case "isundefined":
        return Value.of(v instanceof Value.UndefinedValue);
      case "iserror":
        return Value.of(v instanceof Value.ErrorValue);
      case "isstring":
        return Value.of(v instanceof Value.StringValue);
      case "isinteger":
        return Value.of(v instanceof Value.IntegerValue);
      case "isreal":
        return Value.of(v instanceof Value.RealValue);
      case "isboolean":
        return Value.of(v instanceof Value.BooleanValue);
      case "islist":
        return Value.of(v instanceof Value.ListValue);
      case "isclassad":
        return Value.of(v instanceof Value.ClassAdValue);
      case "isabstime":
        return Value.of(v instanceof Value.AbsTimeValue);
      default:
        return Value.of(v instanceof Value.RelTimeValue);
    }
  }

  private static Value ifThenElse(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 3) {
      return Value.ERROR;
    }
    Value c = ev.eval(a.get(0), env);
    if (c instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    Boolean b = Ops.boolEquiv(c);
    if (b == null) {
      return Value.ERROR;
    }
    return ev.eval(a.get(b ? 1 : 2), env);
  }

  /** Operation::Operate for a comparison: strict on error and undefined. */
  static Value strictCompare(BinaryOp op, Value v1, Value v2) {
    if (op == BinaryOp.IS || op == BinaryOp.ISNT) {
      return Ops.meta(op == BinaryOp.IS, v1, v2);
    }
    if (v1 instanceof Value.ErrorValue || v2 instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    if (v1 instanceof Value.UndefinedValue || v2 instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    return Ops.compare(op, v1, v2);
  }
}
