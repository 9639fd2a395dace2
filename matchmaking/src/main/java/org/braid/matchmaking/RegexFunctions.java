package org.braid.matchmaking;

import com.google.re2j.Matcher;
import java.util.List;

/**
 * Regular-expression functions: regexp, regexps, replace, replaceAll, regexpMember. Each follows
 * HTCondor's fnCall.cpp ({@code regexp_helper}); matching is RE2/J's, bounded by the evaluation's
 * budget (see {@link Regex}).
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
    Regex re = Regex.compile(p.value(), opts, ev.budget);
    return re == null ? Value.ERROR : Value.of(re.withStack(() -> re.find(t.value())));
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
    Regex re = Regex.compile(p.value(), opts, ev.budget);
    boolean maybeUndefined = false;
    for (Expr item : list.items()) {
      Value e;
      try {
        e = ev.eval(item, list.env);
      } catch (EvalFailure f) {
        if (ev.budget.exhausted()) {
          throw f;
        }
        return Value.ERROR;
      }
      if (e instanceof Value.StringValue s) {
        // HTCondor: a pattern that does not compile matches no element (it is not error here)
        if (re != null && re.withStack(() -> re.find(s.value()))) {
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
    Regex re = Regex.compile(p.value(), opts, ev.budget);
    if (re == null) {
      return Value.ERROR;
    }
    boolean full = opts.indexOf('f') >= 0;
    boolean all = opts.indexOf('g') >= 0;
    return re.withStack(() -> substitute(ev.budget, re, t.value(), r.value(), full, all));
  }

  /**
   * HTCondor's substitution loop. After an empty match it looks for a non-empty match anchored at
   * the same place; when there is none it copies one character (even without {@code f}) and
   * searches on, and at the end of the text that read runs past the end, which HTCondor reports as
   * error: so a global substitution whose pattern matches empty at the end of the text is error
   * ({@code replaceAll("x*", "abc", "y")}).
   */
  private static Value substitute(
      Budget budget, Regex re, String target, String replace, boolean full, boolean all) {
    Matcher m = re.matcher(target);
    StringBuilder out = new StringBuilder();
    int idx = 0;
    boolean emptyMatch = false;
    while (true) {
      Matcher found;
      if (emptyMatch) {
        found = re.nonEmptyMatchAt(target, idx);
        if (found == null) {
          if (idx >= target.length()) {
            return Value.ERROR; // HTCondor: PCRE2_ERROR_BADOFFSET
          }
          int next = target.offsetByCodePoints(idx, 1);
          out.append(target, idx, next);
          idx = next;
          emptyMatch = false;
          continue;
        }
      } else if (m.find(idx)) {
        found = m;
      } else {
        break;
      }
      if (full) {
        out.append(target, idx, found.start());
      }
      if (!expand(replace, found, out, budget)) {
        return Value.ERROR;
      }
      idx = found.end();
      emptyMatch |= found.start() == found.end();
      if (!all) {
        break;
      }
    }
    if (full) {
      if (!budget.stringFits((long) out.length() + target.length() - idx)) {
        return Value.ERROR;
      }
      out.append(target, idx, target.length());
    }
    return Value.of(out.toString());
  }

  /**
   * Appends {@code replace} with {@code \N} filled in. As in HTCondor, {@code \N} past the last
   * group that took part in the match is error, and a group that did not take part is empty. False
   * for error, also when the text would grow past the budget's string limit.
   */
  private static boolean expand(String replace, Matcher m, StringBuilder out, Budget budget) {
    int groups = 1; // PCRE's match count: one more than the highest group set
    for (int g = m.groupCount(); g > 0; g--) {
      if (m.start(g) >= 0) {
        groups = g + 1;
        break;
      }
    }
    for (int k = 0; k < replace.length(); k++) {
      char c = replace.charAt(k);
      if (c == '\\' && k + 1 < replace.length() && Character.isDigit(replace.charAt(k + 1))) {
        int g = replace.charAt(++k) - '0';
        if (g >= groups) {
          return false;
        }
        String text = m.group(g);
        if (text != null) {
          if (!budget.stringFits((long) out.length() + text.length())) {
            return false;
          }
          out.append(text);
        }
      } else {
        out.append(c);
      }
    }
    return budget.stringFits(out.length());
  }
}
