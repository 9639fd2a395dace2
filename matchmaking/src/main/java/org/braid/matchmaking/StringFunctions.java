package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * String functions: strcat, join, toUpper, toLower, substr, strcmp, stricmp, versioncmp, string
 * lists, interval, unparse, eval. Each follows HTCondor's fnCall.cpp.
 */
final class StringFunctions {

  private StringFunctions() {}

  static Value strcat(Evaluator ev, List<Expr> a, Env env, boolean join) {
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
      Value s = Conversions.toStringValue(v, ev.budget);
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
          if (!ev.budget.stringFits((long) buf.length() + sep.length())) {
            return Value.ERROR;
          }
          buf.append(sep); // HTCondor adds the separator only after non-empty output
        }
        items++;
      }
      if (!ev.budget.stringFits((long) buf.length() + str.value().length())) {
        return Value.ERROR;
      }
      buf.append(str.value());
    }
    if (join && (undefinedSep || undefinedItem) && items == 0) {
      return Value.UNDEFINED;
    }
    return Value.of(buf.toString());
  }

  static Value stringArg(Evaluator ev, Value v) {
    return Conversions.toStringValue(v, ev.budget);
  }

  static Value changeCase(Evaluator ev, List<Expr> a, Env env, boolean lower) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    Value s = stringArg(ev, ev.eval(a.get(0), env));
    if (!(s instanceof Value.StringValue str)) {
      return s;
    }
    return Value.of(lower ? Ops.asciiLower(str.value()) : Ops.asciiUpper(str.value()));
  }

  static Value substr(Evaluator ev, List<Expr> a, Env env) {
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

  static Value strcmp(Evaluator ev, List<Expr> a, Env env, boolean ignoreCase) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.UndefinedValue || y instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(stringArg(ev, x) instanceof Value.StringValue s0)
        || !(stringArg(ev, y) instanceof Value.StringValue s1)) {
      return Value.ERROR;
    }
    int c =
        ignoreCase
            ? Ops.compareIgnoreCase(s0.value(), s1.value())
            : Ops.compareBytes(s0.value(), s1.value());
    return Value.of((long) Integer.signum(c));
  }

  static Value versioncmp(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 2) {
      return Value.ERROR;
    }
    Value x = ev.eval(a.get(0), env);
    Value y = ev.eval(a.get(1), env);
    if (x instanceof Value.UndefinedValue || y instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (!(stringArg(ev, x) instanceof Value.StringValue s0)
        || !(stringArg(ev, y) instanceof Value.StringValue s1)) {
      return Value.ERROR;
    }
    return Value.of((long) Conversions.naturalCompare(s0.value(), s1.value()));
  }

  static List<String> split(String list, String delims) {
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
  static Value stringListMember(Evaluator ev, List<Expr> a, Env env) {
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

  static Value stringListsIntersect(Evaluator ev, List<Expr> a, Env env) {
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
    // a set, so that two long lists cost their lengths, not their product
    Set<String> y = new HashSet<>(split(((Value.StringValue) v[1]).value(), delims));
    for (String s : x) {
      if (y.contains(s)) {
        return Value.TRUE;
      }
    }
    return Value.FALSE;
  }

  static Value interval(Evaluator ev, List<Expr> a, Env env) {
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

  static Value unparse(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1 || !(a.get(0) instanceof Expr.AttrRef ref)) {
      return Value.ERROR;
    }
    int max = ev.options.maxStringLength();
    try {
      String name = Unparser.compatExpr(ref, max);
      Expr e = env == null ? null : env.ad.lookup(name);
      return Value.of(e == null ? "" : Unparser.compatExpr(e, max));
    } catch (Unparser.TooLong tooLong) {
      return ev.budget.stringTooLong();
    }
  }

  static Value evalString(Evaluator ev, List<Expr> a, Env env) {
    if (a.size() != 1) {
      return Value.ERROR;
    }
    if (!(stringArg(ev, ev.eval(a.get(0), env)) instanceof Value.StringValue s)) {
      return Value.ERROR;
    }
    // the parse nests no deeper than the evaluation still may: a deeper tree could not be
    // evaluated anyway, and the parse runs on top of the evaluation's stack
    int depth = Math.min(ParseOptions.DEFAULT.maxDepth(), ev.nestingLeft());
    if (depth <= 0) {
      return Value.ERROR;
    }
    Expr e;
    try {
      e = Parser.over(s.value(), ParseOptions.DEFAULT.withMaxDepth(depth)).wholeExpression();
    } catch (ClassAdParseException ex) {
      return Value.ERROR;
    }
    return ev.eval(e, env);
  }
}
