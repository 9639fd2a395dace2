package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.braid.matchmaking.Expr.BinaryOp;

/**
 * Walks an expression tree and computes its value, with HTCondor's semantics: strict new-ClassAd
 * scoping, lazy lists and ads, undefined and error as values.
 *
 * <p>One instance is one evaluation (HTCondor's EvalState): it marks the attributes it is in the
 * middle of evaluating, and an attribute met again while still being evaluated (a reference cycle)
 * reads as undefined, as in HTCondor. Finished values are not remembered (HTCondor does not
 * either), so a step budget bounds the work: one {@link Budget} for the whole evaluation, shared
 * with the fresh evaluators that list projections and ad subscripts start. Recursion is bounded by
 * {@link EvalOptions#maxNesting()}. Not thread-safe; cheap to create.
 */
final class Evaluator {

  final EvalOptions options;
  final Budget budget;
  final Env root;
  // Attributes being evaluated (a reference cycle meets one again); made on the first followed,
  // and shared with the evaluators of a list projection.
  private InProgress inProgress;

  private int depth;
  private int nesting;

  /** The first evaluator of an evaluation, with a budget of its own. */
  Evaluator(Env root, EvalOptions options) {
    this(root, new Budget(options));
  }

  /** An evaluator that spends {@code budget}, the budget of the evaluation it is part of. */
  Evaluator(Env root, Budget budget) {
    this.root = root;
    this.budget = budget;
    this.options = budget.options;
  }

  /** A fresh evaluator for a nested evaluation: same budget, nesting counted on. */
  private Evaluator nested(Env nestedRoot) {
    Evaluator fresh = new Evaluator(nestedRoot, budget);
    fresh.nesting = nesting;
    return fresh;
  }

  /** How many more levels evaluation may nest before {@link EvalOptions#maxNesting()}. */
  int nestingLeft() {
    return options.maxNesting() - nesting;
  }

  /**
   * Evaluates {@code e} in scope {@code env}; failures propagate as {@link EvalFailure}. Every
   * {@link DeepStack#LEVELS} levels of nesting the evaluation continues on a fresh thread stack, so
   * that {@link EvalOptions#maxNesting()}, not the caller's stack, is the limit.
   */
  Value eval(Expr e, Env env) {
    if (nesting != 0 && nesting % DeepStack.LEVELS == 0) {
      // a hand-over costs as much as many nodes: an input that crosses the boundary over and
      // over (a long list evaluated right at it) runs out of steps before it runs up much time
      budget.charge(DeepStack.STEPS);
      return budget.deepStack().run(nesting / DeepStack.LEVELS, () -> evalHere(e, env));
    }
    return evalHere(e, env);
  }

  /** Evaluates {@code e} on this thread's stack, dispatching straight to the node's handler. */
  private Value evalHere(Expr e, Env env) {
    if (nesting >= options.maxNesting()) {
      throw budget.failure("evaluation nested deeper than " + options.maxNesting());
    }
    budget.step();
    nesting++;
    try {
      Value v;
      if (e instanceof Expr.Literal l) {
        v = l.value();
      } else if (e instanceof Expr.AttrRef r) {
        v = reference(r, env);
      } else if (e instanceof Expr.Call c) {
        // function calls do not count against HTCondor's depth
        try {
          v = Functions.call(this, c, env);
        } catch (EvalFailure f) {
          throw f.leaving(Value.ERROR); // HTCondor's functions set error when an argument fails
        }
      } else if (e instanceof Expr.ListExpr l) {
        return new Value.ListValue(l.items(), env);
      } else if (e instanceof Expr.AdExpr a) {
        return new Value.ClassAdValue(a.ad(), env);
      } else {
        v = operator(e, env);
      }
      if (v instanceof Value.StringValue s) {
        budget.chargeString(s.value().length());
      }
      return v;
    } finally {
      nesting--;
    }
  }

  /** HTCondor's own depth limit: language semantics, not one of Braid's safety limits. */
  private EvalFailure tooDeep() {
    return new EvalFailure("evaluation nested deeper than " + options.maxReferenceDepth());
  }

  /**
   * An operator: each counts one against HTCondor's evaluation depth (parentheses, ?: and
   * subscripts too), as attribute references do.
   */
  private Value operator(Expr e, Env env) {
    if (depth >= options.maxReferenceDepth()) {
      throw tooDeep();
    }
    depth++;
    try {
      if (e instanceof Expr.Binary b) {
        return binary(b, env);
      }
      if (e instanceof Expr.Paren p) {
        return eval(p.inner(), env);
      }
      if (e instanceof Expr.Unary u) {
        return unary(u.op(), eval(u.operand(), env));
      }
      if (e instanceof Expr.Subscript s) {
        return subscript(s, env);
      }
      return conditional((Expr.Conditional) e, env);
    } catch (EvalFailure f) {
      // HTCondor's operators set error when an operand fails (conditional sets its own)
      throw e instanceof Expr.Conditional ? f : f.leaving(Value.ERROR);
    } finally {
      depth--;
    }
  }

  private static Value unary(Expr.UnaryOp op, Value v) {
    switch (op) {
      case MINUS:
        return Ops.minus(v);
      case PLUS:
        return Ops.plus(v);
      case NOT:
        return Ops.not(v);
      default:
        return Ops.bitNot(v);
    }
  }

  private Value conditional(Expr.Conditional c, Env env) {
    Value sel;
    try {
      sel = eval(c.condition(), env);
    } catch (EvalFailure f) {
      throw f.leaving(Value.ERROR);
    }
    if (sel instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (sel instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    Boolean b = Ops.boolEquiv(sel);
    try {
      if (b != null) {
        return eval(b ? c.ifTrue() : c.ifFalse(), env);
      }
      // A selector of another type: HTCondor evaluates both arms before giving error (a failure
      // in either propagates).
      eval(c.ifTrue(), env);
      eval(c.ifFalse(), env);
      return Value.ERROR;
    } catch (EvalFailure f) {
      throw f.leaving(Value.ERROR);
    }
  }

  private Value binary(Expr.Binary b, Env env) {
    BinaryOp op = b.op();
    Value v1 = eval(b.left(), env);
    switch (op) {
      case AND:
      case OR:
        {
          Boolean b1 = Ops.boolEquiv(v1);
          if (b1 != null && b1 == (op == BinaryOp.OR)) {
            return Value.of(b1);
          }
          return Ops.logical(op, v1, eval(b.right(), env));
        }
      case ELVIS:
        return v1 instanceof Value.UndefinedValue ? eval(b.right(), env) : v1;
      case IS:
      case ISNT:
        return Ops.meta(op == BinaryOp.IS, v1, eval(b.right(), env));
      default:
        break;
    }
    Value v2 = eval(b.right(), env);
    if (v1 instanceof Value.ErrorValue || v2 instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    if (v1 instanceof Value.UndefinedValue || v2 instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    switch (op) {
      case EQUAL:
      case NOT_EQUAL:
      case LESS:
      case LESS_OR_EQUAL:
      case GREATER:
      case GREATER_OR_EQUAL:
        return Ops.compare(op, v1, v2);
      case ADD:
      case SUBTRACT:
      case MULTIPLY:
      case DIVIDE:
      case MODULUS:
        return Ops.arithmetic(op, v1, v2);
      default:
        return Ops.bitwise(op, v1, v2);
    }
  }

  private Value subscript(Expr.Subscript s, Env env) {
    Value base = eval(s.base(), env);
    Value idx = eval(s.index(), env);
    if (base instanceof Value.ErrorValue || idx instanceof Value.ErrorValue) {
      return Value.ERROR;
    }
    if (base instanceof Value.UndefinedValue || idx instanceof Value.UndefinedValue) {
      return Value.UNDEFINED;
    }
    if (base instanceof Value.ClassAdValue ad && idx instanceof Value.StringValue name) {
      Expr found = ad.ad().lookup(name.value());
      if (found == null) {
        return Value.UNDEFINED;
      }
      // HTCondor evaluates the attribute afresh, as ClassAd::EvaluateAttr does, and a failure
      // gives error.
      Env scope = new Env(ad.ad(), ad.parent);
      try {
        return nested(scope.top()).eval(found, scope);
      } catch (EvalFailure f) {
        return Value.ERROR;
      }
    }
    if (base instanceof Value.ListValue list && idx instanceof Value.IntegerValue i) {
      int k = (int) i.value(); // HTCondor truncates the index to a C int
      if (k < 0 || k >= list.size()) {
        return Value.ERROR;
      }
      // the element's evaluation counts one more against HTCondor's depth
      if (depth >= options.maxReferenceDepth()) {
        return Value.ERROR;
      }
      depth++;
      try {
        return eval(list.items().get(k), list.env);
      } catch (EvalFailure f) {
        // HTCondor hands on what the failed element left in the result
        return f.left;
      } finally {
        depth--;
      }
    }
    return Value.ERROR;
  }

  /** The element values of a list, evaluated in the list's scope. */
  List<Value> elements(Value.ListValue list) {
    List<Value> out = new ArrayList<>(list.size());
    for (Expr item : list.items()) {
      out.add(eval(item, list.env));
    }
    return out;
  }

  private Value reference(Expr.AttrRef r, Env env) {
    Env start;
    if (r.scope() == null) {
      if (r.absolute()) {
        if (root == null) {
          throw new EvalFailure("absolute reference ." + r.name() + " outside any ad", true);
        }
        start = root;
      } else {
        start = env;
      }
    } else {
      // HTCondor counts evaluating the scope of expr.attr against the reference depth too, so
      // that expr.attr nested inside itself (through a list projection) stops at the limit.
      if (depth >= options.maxReferenceDepth()) {
        return Value.ERROR;
      }
      Value scope;
      depth++;
      try {
        scope = eval(r.scope(), env);
      } catch (EvalFailure f) {
        // the scope is evaluated into a value of its own: the result stays untouched
        throw f.leaving(Value.UNDEFINED);
      } finally {
        depth--;
      }
      if (scope instanceof Value.UndefinedValue) {
        return Value.UNDEFINED;
      }
      if (scope instanceof Value.ErrorValue) {
        return Value.ERROR;
      }
      if (scope instanceof Value.ListValue list) {
        try {
          return selectFromList(list, r.name());
        } catch (EvalFailure f) {
          throw f.leaving(Value.UNDEFINED);
        }
      }
      if (!(scope instanceof Value.ClassAdValue ad)) {
        return Value.ERROR;
      }
      start = new Env(ad.ad(), ad.parent);
    }
    if (start == null) {
      return Value.UNDEFINED;
    }
    for (Env s = start; s != null; s = s.parent) {
      Expr found = s.ad.lookup(r.name());
      if (found != null) {
        return follow(found, s);
      }
    }
    return special(r.name(), start);
  }

  /** self, parent, toplevel and root, when no ad in scope defines the name. */
  private Value special(String name, Env start) {
    Value v = specialAd(name, start);
    // HTCondor follows the ad found like any attribute: the depth limit applies
    if (!(v instanceof Value.UndefinedValue) && depth >= options.maxReferenceDepth()) {
      throw tooDeep();
    }
    return v;
  }

  private Value specialAd(String name, Env start) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "self":
        return start.asValue();
      case "parent":
        return start.parent == null ? Value.UNDEFINED : start.parent.asValue();
      case "toplevel":
      case "root":
        if (root == null) {
          throw new EvalFailure("toplevel outside any ad", true);
        }
        return root.asValue();
      default:
        return Value.UNDEFINED;
    }
  }

  private Value follow(Expr found, Env scope) {
    if (found instanceof Expr.Literal
        || found instanceof Expr.AdExpr
        || found instanceof Expr.ListExpr) {
      // Values that cannot refer back: no need to remember them (HTCondor's depth limit still
      // counts the hop).
      if (depth >= options.maxReferenceDepth()) {
        throw tooDeep();
      }
      return value(found, scope);
    }
    // HTCondor checks the depth before it looks for a cycle
    if (depth >= options.maxReferenceDepth()) {
      throw tooDeep();
    }
    if (inProgress == null) {
      inProgress = new InProgress();
    }
    if (!inProgress.enter(found, scope.ad)) {
      return Value.UNDEFINED; // a reference cycle
    }
    depth++;
    try {
      return eval(found, scope);
    } finally {
      depth--;
      inProgress.leave(found, scope.ad);
    }
  }

  /** The value of a literal, list or ad expression: no evaluation, so no step or nesting. */
  private static Value value(Expr e, Env env) {
    if (e instanceof Expr.Literal l) {
      return l.value();
    }
    if (e instanceof Expr.ListExpr l) {
      return new Value.ListValue(l.items(), env);
    }
    return new Value.ClassAdValue(((Expr.AdExpr) e).ad(), env);
  }

  /** {@code list.name}: the attribute selected from each element, as a new list. */
  private Value selectFromList(Value.ListValue list, String name) {
    List<Expr> out = new ArrayList<>(list.size());
    for (Expr item : list.items()) {
      Evaluator fresh = nested(root);
      fresh.depth = depth;
      // attributes still being evaluated stay visible (cycles). Shared, not copied: every entry
      // the element's evaluation adds it removes again, and a copy per element would cost the
      // size of the map each time, work the step budget does not see.
      fresh.inProgress = inProgress;
      Value v = fresh.eval(new Expr.AttrRef(item, name, false), list.env);
      out.add(Expr.literalOf(v));
    }
    return new Value.ListValue(out, null);
  }
}
