package org.braid.matchmaking;

import java.util.List;
import java.util.Objects;

/**
 * Evaluates ClassAd expressions with HTCondor's semantics and strict new-ClassAd scoping: an
 * unscoped name resolves in its own ad and the ads that enclose it, never in a match partner.
 *
 * <p>Evaluation never throws for bad data: undefined and error are values. Where HTCondor's own
 * evaluation fails outright (an absolute reference with no enclosing ad, evaluation nested deeper
 * than {@link EvalOptions#maxReferenceDepth()}), the result is error. A reference cycle ({@code a =
 * b; b = a}) evaluates to undefined, as in HTCondor. Thread-safe.
 */
public final class Evaluation {

  private Evaluation() {}

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
    } catch (Evaluator.Failure | StackOverflowError f) {
      return list.items().stream().map(x -> (Value) Value.ERROR).toList();
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
    } catch (Evaluator.Failure f) {
      return Value.ERROR;
    } catch (StackOverflowError so) {
      // The nesting limit keeps this from happening with default stacks; a tiny thread stack
      // still gets an error value rather than a crash.
      return Value.ERROR;
    }
  }
}
