package org.braid.matchmaking;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.braid.matchmaking.Expr.BinaryOp;

/** The built-in functions, each following HTCondor's fnCall.cpp. Names are case-insensitive. */
final class Functions {

  private Functions() {}

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
        return member(ev, a, env, name.equals("identicalmember"));
      case "size":
        return size(ev, a, env);
      case "sum":
      case "avg":
        return sumAvg(ev, a, env, name.equals("sum"));
      case "min":
      case "max":
        return minMax(ev, a, env, name.equals("min"));
      case "anycompare":
      case "allcompare":
        return listCompare(ev, a, env, name.equals("allcompare"));
      case "strcat":
      case "join":
        return strcat(ev, a, env, name.equals("join"));
      case "toupper":
      case "tolower":
        return changeCase(ev, a, env, name.equals("tolower"));
      case "substr":
        return substr(ev, a, env);
      case "strcmp":
      case "stricmp":
        return strcmp(ev, a, env, name.equals("stricmp"));
      case "versioncmp":
        return versioncmp(ev, a, env);
      case "regexp":
        return regexp(ev, a, env);
      case "regexps":
      case "replace":
      case "replaceall":
        return substitute(ev, a, env, name);
      case "regexpmember":
        return regexpMember(ev, a, env);
      case "int":
        return a.size() != 1 ? Value.ERROR : Conversions.toIntegerValue(ev.eval(a.get(0), env));
      case "real":
        return a.size() != 1 ? Value.ERROR : Conversions.toRealValue(ev.eval(a.get(0), env));
      case "string":
        return a.size() != 1 ? Value.ERROR : Conversions.toStringValue(ev.eval(a.get(0), env));
      case "bool":
        return a.size() != 1 ? Value.ERROR : toBool(ev.eval(a.get(0), env));
      case "floor":
      case "ceil":
      case "ceiling":
      case "round":
        return round(ev, a, env, name);
      case "pow":
        return pow(ev, a, env);
      case "quantize":
        return quantize(ev, a, env);
      case "time":
        return a.isEmpty() ? Value.of(ev.options.clock().instant().getEpochSecond()) : Value.ERROR;
      case "abstime":
      case "reltime":
        return convTime(ev, a, env, name.equals("reltime"));
      case "interval":
        return interval(ev, a, env);
      case "unparse":
        return unparse(a, env);
      case "eval":
        return evalString(ev, a, env);
      case "stringlistmember":
        return stringListMember(ev, a, env);
      case "stringlistsintersect":
        return stringListsIntersect(ev, a, env);
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

  private static Value member(Evaluator ev, List<Expr> a, Env env, boolean identical) {
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
      Value r = identical ? Ops.meta(true, e, x) : strictCompare(BinaryOp.EQUAL, e, x);
      if (r instanceof Value.BooleanValue b && b.value()) {
        return Value.TRUE;
      }
    }
    return Value.FALSE;
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

  private static Value size(Evaluator ev, List<Expr> a, Env env) {
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

  private static Value listArg(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value v = ev.eval(a.get(0), env);
    if (v instanceof Value.UndefinedValue || v instanceof Value.ListValue) {
      return v;
    }
    return Value.ERROR;
  }

  private static boolean isNumber(Value v) {
    // HTCondor 25 accepts booleans here (Value::IsNumber)
    return v instanceof Value.IntegerValue
        || v instanceof Value.RealValue
        || v instanceof Value.BooleanValue;
  }

  private static Value sumAvg(Evaluator ev, List<Expr> a, Env env, boolean sum) {
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

  private static Value strictArithmetic(BinaryOp op, Value v1, Value v2) {
    if (v1 instanceof Value.ErrorValue || v2 instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    if (v1 instanceof Value.UndefinedValue || v2 instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    return Ops.arithmetic(op, v1, v2);
  }

  private static Value minMax(Evaluator ev, List<Expr> a, Env env, boolean min) {
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
        Value cmp = strictCompare(min ? BinaryOp.LESS : BinaryOp.GREATER, e, result);
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

  private static Value listCompare(Evaluator ev, List<Expr> a, Env env, boolean all) {
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
      Value r = strictCompare(op, ev.eval(item, list.env), target);
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

  private static Value strcat(Evaluator ev, List<Expr> a, Env env, boolean join) {
    List<Expr> args = a;
    Env[] envs = null;
    if (join && !a.isEmpty() && a.size() <= 2) {
      Value last = ev.eval(a.get(a.size() - 1), env);
      if (last instanceof Value.ListValue list) {
        args = new ArrayList<>();
        int n = list.size() + 1;
        envs = new Env[n];
        args.add(a.size() > 1 ? a.get(0) : new Expr.Literal(Value.of("")));
        envs[0] = env;
        for (int k = 0; k < list.size(); k++) {
          args.add(list.items().get(k));
          envs[k + 1] = list.env;
        }
      }
    }
    StringBuilder buf = new StringBuilder();
    String sep = "";
    boolean undefinedSep = false;
    boolean undefinedItem = false;
    int items = 0;
    for (int k = 0; k < args.size(); k++) {
      Value v = ev.eval(args.get(k), envs == null ? env : envs[k]);
      Value s = Conversions.toStringValue(v);
      if (s instanceof Value.UndefinedValue) {
        if (!join) {
          return Value.UNDEFINED;
        }
        // join skips undefined items; an undefined separator joins with nothing
        undefinedSep |= k == 0;
        undefinedItem |= k > 0;
        continue;
      }
      if (!(s instanceof Value.StringValue str)) {
        return Value.ERROR;
      }
      if (join) {
        if (k == 0) {
          sep = str.value();
          continue;
        }
        if (buf.length() > 0) {
          buf.append(sep); // HTCondor adds the separator only after non-empty output
        }
        items++;
      }
      buf.append(str.value());
    }
    if (join && (undefinedSep || undefinedItem) && items == 0) {
      return Value.UNDEFINED;
    }
    return Value.of(buf.toString());
  }

  private static Value stringArg(Value v) {
    return Conversions.toStringValue(v);
  }

  private static Value changeCase(Evaluator ev, List<Expr> a, Env env, boolean lower) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value s = Conversions.toStringValue(ev.eval(a.get(0), env));
    if (!(s instanceof Value.StringValue str)) {
      return s;
    }
    return Value.of(lower ? Ops.asciiLower(str.value()) : Ops.asciiUpper(str.value()));
  }

  private static Value substr(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() < 2 || a.size() > 3) {
      return Value.ERROR;
    }
    Value s = ev.eval(a.get(0), env);
    Value o = ev.eval(a.get(1), env);
    Value l = a.size() > 2 ? ev.eval(a.get(2), env) : null;
    if (s instanceof Value.UndefinedValue
        || o instanceof Value.UndefinedValue
        || l instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(s instanceof Value.StringValue str)
        || !(o instanceof Value.IntegerValue off)
        || (l != null && !(l instanceof Value.IntegerValue))) {
      return Value.ERROR;
    }
    String buf = str.value();
    int alen = buf.length();
    int offset = (int) off.value();
    int len = l == null ? 0 : (int) ((Value.IntegerValue) l).value();
    if (offset < 0) {
      offset = Math.max(0, alen + offset);
    } else if (offset >= alen) {
      offset = alen;
    }
    if (len <= 0) {
      len = Math.max(0, alen - offset + len);
    } else if (len > alen - offset) {
      len = alen - offset;
    }
    if (l != null && (int) ((Value.IntegerValue) l).value() == 0) {
      len = 0;
    }
    if (offset < 0) {
      return Value.ERROR; // std::string::assign would throw out_of_range
    }
    return Value.of(buf.substring(offset, Math.min(alen, offset + len)));
  }

  private static Value strcmp(Evaluator ev, List<Expr> a, Env env, boolean ignoreCase) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.UndefinedValue || y instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(stringArg(x) instanceof Value.StringValue s0)
        || !(stringArg(y) instanceof Value.StringValue s1)) {
      return Value.ERROR;
    }
    int c =
        ignoreCase
            ? Ops.compareIgnoreCase(s0.value(), s1.value())
            : Ops.compareBytes(s0.value(), s1.value());
    return Value.of((long) Integer.signum(c));
  }

  private static Value versioncmp(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.UndefinedValue || y instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(stringArg(x) instanceof Value.StringValue s0)
        || !(stringArg(y) instanceof Value.StringValue s1)) {
      return Value.ERROR;
    }
    return Value.of((long) Conversions.naturalCompare(s0.value(), s1.value()));
  }

  /** Evaluates regex arguments: error beats undefined, undefined beats type errors. */
  private static Value[] regexArgs(Evaluator ev, List<Expr> a, Env env, int required) {
    Value[] v = new Value[a.size()];
    for (int k = 0; k < a.size(); k++) {
      v[k] = ev.eval(a.get(k), env);
    }
    for (Value x : v) {
      if (x instanceof Value.ErrorValue) {
        return new Value[] {Value.ERROR};
      }
    }
    for (Value x : v) {
      if (x instanceof Value.UndefinedValue) {
        return new Value[] {Value.UNDEFINED};
      }
    }
    if (v.length > required && !(v[required] instanceof Value.StringValue)) {
      return new Value[] {Value.ERROR};
    }
    return v;
  }

  private static Pattern compile(String pattern, String options) {
    int flags = 0;
    if (options.indexOf('i') >= 0) {
      flags |= Pattern.CASE_INSENSITIVE;
    }
    if (options.indexOf('m') >= 0) {
      flags |= Pattern.MULTILINE;
    }
    if (options.indexOf('s') >= 0) {
      flags |= Pattern.DOTALL;
    }
    if (options.indexOf('x') >= 0) {
      flags |= Pattern.COMMENTS;
    }
    try {
      return Pattern.compile(pattern, flags);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  private static Value regexp(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2 && a.size() != 3) {
      return Value.ERROR;
    }
    Value[] v = regexArgs(ev, a, env, 2);
    if (v.length == 1) {
      return v[0];
    }
    if (!(v[0] instanceof Value.StringValue p) || !(v[1] instanceof Value.StringValue t)) {
      return Value.ERROR;
    }
    String opts = v.length > 2 ? ((Value.StringValue) v[2]).value() : "";
    Pattern re = compile(p.value(), opts);
    return re == null ? Value.ERROR : Value.of(re.matcher(t.value()).find());
  }

  private static Value regexpMember(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2 && a.size() != 3) {
      return Value.ERROR;
    }
    Value[] v = regexArgs(ev, a, env, 2);
    if (v.length == 1) {
      return v[0];
    }
    if (!(v[0] instanceof Value.StringValue p) || !(v[1] instanceof Value.ListValue list)) {
      return Value.ERROR;
    }
    String opts = v.length > 2 ? ((Value.StringValue) v[2]).value() : "";
    Pattern re = compile(p.value(), opts);
    boolean maybeUndefined = false;
    for (Expr item : list.items()) {
      Value e;
      try {
        e = ev.eval(item, list.env);
      } catch (Evaluator.Failure | StackOverflowError f) {
        return Value.ERROR;
      }
      if (e instanceof Value.StringValue s) {
        if (re == null) {
          return Value.ERROR;
        }
        if (re.matcher(s.value()).find()) {
          return Value.TRUE;
        }
      } else if (e instanceof Value.UndefinedValue) {
        maybeUndefined = true;
      } else {
        return Value.ERROR;
      }
    }
    return maybeUndefined ? Value.UNDEFINED : Value.FALSE;
  }

  private static Value substitute(Evaluator ev, List<Expr> a, Env env, String name) {
    if (a.size() != 3 && a.size() != 4) {
      return Value.ERROR;
    }
    Value[] v = regexArgs(ev, a, env, 3);
    if (v.length == 1) {
      return v[0];
    }
    String opts = v.length > 3 ? ((Value.StringValue) v[3]).value() : "";
    if (name.equals("replace")) {
      opts += "f";
    } else if (name.equals("replaceall")) {
      opts += "fg";
    }
    if (!(v[0] instanceof Value.StringValue p)
        || !(v[1] instanceof Value.StringValue t)
        || !(v[2] instanceof Value.StringValue r)) {
      return Value.ERROR;
    }
    Pattern re = compile(p.value(), opts);
    if (re == null) {
      return Value.ERROR;
    }
    boolean full = opts.indexOf('f') >= 0;
    boolean all = opts.indexOf('g') >= 0;
    String target = t.value();
    Matcher m = re.matcher(target);
    StringBuilder out = new StringBuilder();
    int last = 0;
    boolean any = false;
    while (m.find()) {
      any = true;
      if (full) {
        out.append(target, last, m.start());
      }
      if (!expand(r.value(), m, out)) {
        return Value.ERROR;
      }
      last = m.end();
      if (!all) {
        break;
      }
      if (m.end() == m.start()) {
        if (m.end() >= target.length()) {
          break;
        }
        if (!m.find(m.end() + 1)) {
          break;
        }
        m.region(m.end() + 1, target.length());
      }
    }
    if (!any) {
      return Value.of(full ? target : "");
    }
    if (full) {
      out.append(target.substring(last));
    }
    return Value.of(out.toString());
  }

  private static boolean expand(String replace, Matcher m, StringBuilder out) {
    for (int k = 0; k < replace.length(); k++) {
      char c = replace.charAt(k);
      if (c == '\\' && k + 1 < replace.length() && Character.isDigit(replace.charAt(k + 1))) {
        int g = replace.charAt(++k) - '0';
        if (g > m.groupCount()) {
          return false; // HTCondor: a reference to a group the pattern lacks is an error
        }
        if (m.group(g) != null) {
          out.append(m.group(g));
        }
      } else {
        out.append(c);
      }
    }
    return true;
  }

  private static Value toBool(Value v) {
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

  private static Value round(Evaluator ev, List<Expr> a, Env env, String name) {
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

  private static Value pow(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.IntegerValue xi && y instanceof Value.IntegerValue yi && yi.value() >= 0) {
      return Value.of(
          Conversions.castToLong(Math.pow((double) xi.value(), (double) yi.value()) + 0.5));
    }
    if (!(Conversions.toRealValue(x) instanceof Value.RealValue rx)
        || !(Conversions.toRealValue(y) instanceof Value.RealValue ry)) {
      return Value.ERROR;
    }
    return Value.of(Math.pow(rx.value(), ry.value()));
  }

  private static Value quantize(Evaluator ev, List<Expr> a, Env env) {
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

  private static Value convTime(Evaluator ev, List<Expr> a, Env env, boolean relative) {
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

  private static Value interval(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    if (!(Conversions.toIntegerValue(ev.eval(a.get(0), env)) instanceof Value.IntegerValue iv)) {
      return Value.ERROR;
    }
    int tot = (int) iv.value();
    int days = tot / 86400;
    tot %= 86400;
    int hours = tot / 3600;
    tot %= 3600;
    int min = tot / 60;
    int secs = tot % 60;
    String s;
    if (days != 0) {
      s = String.format("%d+%02d:%02d:%02d", days, Math.abs(hours), Math.abs(min), Math.abs(secs));
    } else if (hours != 0) {
      s = String.format("%d:%02d:%02d", hours, Math.abs(min), Math.abs(secs));
    } else if (min != 0) {
      s = String.format("%d:%02d", min, Math.abs(secs));
    } else {
      s = Integer.toString(secs);
    }
    return Value.of(s);
  }

  private static Value unparse(List<Expr> a, Env env) {
    if (a.size() != 1 || !(a.get(0) instanceof Expr.AttrRef ref)) {
      return Value.ERROR;
    }
    String name = Unparser.compatExpr(ref);
    Expr e = env == null ? null : env.ad.lookup(name);
    return Value.of(e == null ? "" : Unparser.compatExpr(e));
  }

  private static Value evalString(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    if (!(stringArg(ev.eval(a.get(0), env)) instanceof Value.StringValue s)) {
      return Value.ERROR;
    }
    Expr e;
    try {
      e = Parser.over(s.value(), ParseOptions.DEFAULT).wholeExpression();
    } catch (ClassAdParseException ex) {
      return Value.ERROR;
    }
    return ev.eval(e, env);
  }

  private static List<String> split(String list, String delims) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int k = 0; k < list.length(); k++) {
      char c = list.charAt(k);
      if (delims.indexOf(c) >= 0) {
        if (cur.length() > 0) {
          out.add(cur.toString());
          cur.setLength(0);
        }
      } else {
        cur.append(c);
      }
    }
    if (cur.length() > 0) {
      out.add(cur.toString());
    }
    return out;
  }

  /** HTCondor's stringListMember(item, list [, delimiters]); case-sensitive. */
  private static Value stringListMember(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2 && a.size() != 3) {
      return Value.ERROR;
    }
    Value[] v = new Value[a.size()];
    for (int k = 0; k < a.size(); k++) {
      v[k] = ev.eval(a.get(k), env);
      if (v[k] instanceof Value.UndefinedValue) {
        return Value.UNDEFINED;
      }
      if (!(v[k] instanceof Value.StringValue)) {
        return Value.ERROR;
      }
    }
    String delims = v.length > 2 ? ((Value.StringValue) v[2]).value() : ", ";
    return Value.of(
        split(((Value.StringValue) v[1]).value(), delims)
            .contains(((Value.StringValue) v[0]).value()));
  }

  private static Value stringListsIntersect(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2 && a.size() != 3) {
      return Value.ERROR;
    }
    Value[] v = new Value[a.size()];
    for (int k = 0; k < a.size(); k++) {
      v[k] = ev.eval(a.get(k), env);
      if (v[k] instanceof Value.UndefinedValue) {
        return Value.UNDEFINED;
      }
      if (!(v[k] instanceof Value.StringValue)) {
        return Value.ERROR;
      }
    }
    String delims = v.length > 2 ? ((Value.StringValue) v[2]).value() : ", ";
    List<String> x = split(((Value.StringValue) v[0]).value(), delims);
    List<String> y = split(((Value.StringValue) v[1]).value(), delims);
    for (String s : x) {
      if (y.contains(s)) {
        return Value.TRUE;
      }
    }
    return Value.FALSE;
  }
}
