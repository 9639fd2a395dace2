package org.braid.matchmaking;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a value as a self-contained literal: list elements are evaluated in the scope the list was
 * written in (recursively, so the text does not depend on that scope); ads are written as their
 * attribute expressions. Iterative: an explicit stack of the lists being written, at most {@link
 * EvalOptions#maxNesting()} deep, and at most {@link EvalOptions#maxStringLength()} characters, so
 * a list that holds itself ({@code [ r = { r } ].r}) ends at a limit instead of the stack's. A list
 * met again inside itself (the same elements in the same scope) could only be written forever, so
 * it ends there at once: before, such a list was written ever deeper, each level evaluating its
 * elements again, until the step budget ran out ({@code [ x = { x.a, x }; r = x ].r}: 500,000
 * steps).
 */
final class Printer {

  /** A list being written and the index of its next element. */
  private static final class Frame {
    final Value.ListValue list;
    final Open key;
    int next;

    Frame(Value.ListValue list) {
      this.list = list;
      this.key = new Open(list.items(), list.env);
    }
  }

  /** A list by the identity of its element expressions and of its scope. */
  private record Open(List<Expr> items, Env env) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Open k && k.items == items && k.env == env;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(items) * 31 + System.identityHashCode(env);
    }
  }

  private final Evaluator ev;
  private final Budget budget;
  private final StringBuilder sb = new StringBuilder();
  private final Unparser unparser;
  private final ArrayDeque<Frame> stack = new ArrayDeque<>();
  private final Set<Open> open = new HashSet<>();

  private Printer(Evaluator ev) {
    this.ev = ev;
    this.budget = ev.budget;
    this.unparser = new Unparser(sb, budget.options.maxStringLength());
  }

  /**
   * The literal for {@code v}; elements are evaluated with {@code ev}'s budget.
   *
   * @throws EvalFailure when a limit is reached (recorded in the budget)
   */
  static String literal(Value v, Evaluator ev) {
    Printer p = new Printer(ev);
    p.write(v);
    while (!p.stack.isEmpty()) {
      p.next(p.stack.peek());
    }
    return p.sb.toString();
  }

  private void next(Frame top) {
    if (top.next == top.list.size()) {
      stack.pop();
      open.remove(top.key);
      append(" }");
      return;
    }
    if (top.next > 0) {
      append(", ");
    }
    write(element(top.list, top.next++));
  }

  private Value element(Value.ListValue list, int k) {
    try {
      return ev.eval(list.items().get(k), list.env);
    } catch (EvalFailure f) {
      if (budget.exhausted()) {
        throw f;
      }
      return Value.ERROR;
    }
  }

  private void write(Value v) {
    if (!(v instanceof Value.ListValue l)) {
      try {
        unparser.append(v);
      } catch (Unparser.TooLong e) {
        throw tooLong();
      }
      return;
    }
    if (l.size() == 0) {
      append("{ }");
      return;
    }
    if (stack.size() >= budget.options.maxNesting()) {
      throw budget.failure(
          "printed value nests deeper than " + budget.options.maxNesting() + " lists");
    }
    Frame f = new Frame(l);
    if (!open.add(f.key)) {
      throw budget.failure("printed value contains itself");
    }
    append("{ ");
    stack.push(f);
  }

  private void append(String s) {
    sb.append(s);
    if (sb.length() > budget.options.maxStringLength()) {
      throw tooLong();
    }
  }

  private EvalFailure tooLong() {
    return budget.failure(
        "printed value longer than " + budget.options.maxStringLength() + " characters");
  }
}
