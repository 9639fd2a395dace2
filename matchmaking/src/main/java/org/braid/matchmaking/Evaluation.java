package org.braid.matchmaking;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Evaluates ClassAd expressions with HTCondor's semantics and strict new-ClassAd scoping: an
 * unscoped name resolves in its own ad and the ads that enclose it, never in a match partner.
 *
 * <p>Evaluation never throws for bad data: undefined and error are values. Where HTCondor's own
 * evaluation fails outright (an absolute reference with no enclosing ad, evaluation nested deeper
 * than {@link EvalOptions#maxReferenceDepth()}), the result is error. A reference cycle ({@code a =
 * b; b = a}) evaluates to undefined, as in HTCondor. Each call is one evaluation, bounded as a
 * whole by the limits of its {@link EvalOptions}: past one of them the value (or the part of it
 * being computed) is error. Thread-safe.
 */
public final class Evaluation {

  private Evaluation() {}

  /**
   * A value and its text as a self-contained literal, from {@link #print(Expr, EvalOptions)}.
   *
   * @param value the value; error when the value could not be written within the limits
   * @param text the literal: HTCondor's parser reads it back to the same value
   * @param limitReached the first of Braid's safety limits (nesting, steps, string length, pattern
   *     size) the evaluation reached, as a short phrase such as "evaluation took more than 500000
   *     steps"; empty when none was (HTCondor's own depth limit is language, not listed here)
   */
  public record Printed(Value value, String text, Optional<String> limitReached) {
    /** Checks the arguments. */
    public Printed {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(limitReached, "limitReached");
    }
  }

  /**
   * Evaluates an expression that stands alone and writes its value as a literal that HTCondor's
   * parser reads back to the same value. List elements are evaluated, recursively, in the scope the
   * list was written in, as part of the same evaluation (the same limits bound both); ads are
   * written as their attribute expressions. A value nested deeper than {@link
   * EvalOptions#maxNesting()} lists, or longer than {@link EvalOptions#maxStringLength()}
   * characters, is written as {@code error}.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Printed print(Expr e, EvalOptions options) {
    Objects.requireNonNull(e, "e");
    Objects.requireNonNull(options, "options");
    Evaluator ev = new Evaluator(null, options);
    Value v = run(ev, e, null);
    String text;
    try {
      text = Printer.literal(v, ev);
    } catch (EvalFailure f) {
      v = Value.ERROR;
      text = "error";
    } finally {
      ev.budget.close();
    }
    return new Printed(v, text, Optional.ofNullable(ev.budget.limitReached()));
  }

  /**
   * Evaluates an expression that stands alone (no enclosing ad), with the default options.
   *
   * @throws NullPointerException if {@code e} is null
   */
  public static Value evaluate(Expr e) {
    return evaluate(e, EvalOptions.DEFAULT);
  }

  /**
   * Evaluates an expression that stands alone (no enclosing ad).
   *
   * @throws NullPointerException if an argument is null
   */
  public static Value evaluate(Expr e, EvalOptions options) {
    Objects.requireNonNull(e, "e");
    Objects.requireNonNull(options, "options");
    return run(new Evaluator(null, options), e, null);
  }

  /**
   * Evaluates {@code e} as if it were an attribute of {@code ad} (a top-level ad).
   *
   * @throws NullPointerException if an argument is null
   */
  public static Value evaluateIn(ClassAd ad, Expr e, EvalOptions options) {
    Objects.requireNonNull(ad, "ad");
    Objects.requireNonNull(e, "e");
    Objects.requireNonNull(options, "options");
    Env env = new Env(ad, null);
    return run(new Evaluator(env, options), e, env);
  }

  /**
   * Evaluates attribute {@code name} of the top-level ad {@code ad}; undefined if it has none.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Value attribute(ClassAd ad, String name, EvalOptions options) {
    Objects.requireNonNull(ad, "ad");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    Expr e = ad.lookup(name);
    if (e == null) {
      return Value.UNDEFINED;
    }
    Env env = new Env(ad, null);
    return run(new Evaluator(env, options), e, env);
  }

  /**
   * Evaluates the elements of a list value in the scope the list was written in.
   *
   * @throws NullPointerException if {@code list} is null
   */
  public static List<Value> elements(Value.ListValue list) {
    Objects.requireNonNull(list, "list");
    Evaluator ev = new Evaluator(list.env == null ? null : list.env.top(), EvalOptions.DEFAULT);
    try {
      return ev.elements(list);
    } catch (EvalFailure f) {
      return list.items().stream().map(x -> (Value) Value.ERROR).toList();
    } finally {
      ev.budget.close();
    }
  }

  /**
   * Evaluates attribute {@code name} of an ad value in the scope the ad was written in.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Value attribute(Value.ClassAdValue ad, String name) {
    Objects.requireNonNull(ad, "ad");
    Objects.requireNonNull(name, "name");
    Expr e = ad.ad().lookup(name);
    if (e == null) {
      return Value.UNDEFINED;
    }
    Env env = new Env(ad.ad(), ad.parent);
    return run(new Evaluator(env.top(), EvalOptions.DEFAULT), e, env);
  }

  static Value run(Evaluator ev, Expr e, Env env) {
    try {
      return ev.eval(e, env);
    } catch (EvalFailure f) {
      return Value.ERROR;
    } finally {
      ev.budget.close();
    }
  }
}
