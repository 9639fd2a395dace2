package org.braid.matchmaking;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Regular-expression functions: regexp, regexps, replace, replaceAll, regexpMember. Each follows
 * HTCondor's fnCall.cpp.
 */
final class RegexFunctions {

  private RegexFunctions() {}

  /** Evaluates regex arguments: error beats undefined, undefined beats type errors. */
  static Value[] regexArgs(Evaluator ev, List<Expr> a, Env env, int required) {
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

  static Pattern compile(String pattern, String options) {
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

  static Value regexp(Evaluator ev, List<Expr> a, Env env) {
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

  static Value regexpMember(Evaluator ev, List<Expr> a, Env env) {
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

  static Value substitute(Evaluator ev, List<Expr> a, Env env, String name) {
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

  static boolean expand(String replace, Matcher m, StringBuilder out) {
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
}
