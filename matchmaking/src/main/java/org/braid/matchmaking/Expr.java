package org.braid.matchmaking;

import java.util.List;
import java.util.Objects;

/**
 * A ClassAd expression: the abstract syntax tree the parser builds and the evaluator walks.
 *
 * <p>Every node is an immutable record. Parentheses are kept ({@link Paren}) so that {@link
 * #unparse()} gives back what was written, as HTCondor's unparser does.
 */
public sealed interface Expr
    permits Expr.Literal,
        Expr.AttrRef,
        Expr.Unary,
        Expr.Binary,
        Expr.Conditional,
        Expr.Paren,
        Expr.Subscript,
        Expr.Call,
        Expr.ListExpr,
        Expr.AdExpr {

  /** The expression in HTCondor's compact one-line syntax; parsing it gives an equal tree. */
  default String unparse() {
    return Unparser.expr(this);
  }

  /**
   * Returns an expression that evaluates to {@code v}: a literal for scalars, a list or ad
   * expression for lists and ads.
   */
  static Expr literalOf(Value v) {
    if (v instanceof Value.ListValue l) {
      return new ListExpr(l.items());
    }
    if (v instanceof Value.ClassAdValue c) {
      return new AdExpr(c.ad());
    }
    return new Literal(v);
  }

  /** A constant: undefined, error, boolean, integer, real, string or a time. */
  record Literal(Value value) implements Expr {
    /** Checks that the value is a scalar. */
    public Literal {
      Objects.requireNonNull(value, "value");
      if (value instanceof Value.ListValue || value instanceof Value.ClassAdValue) {
        throw new IllegalArgumentException("literal must be a scalar: " + value.typeName());
      }
    }
  }

  /**
   * An attribute reference: {@code name} (scope null, not absolute), {@code .name} (absolute), or
   * {@code scope.name}.
   */
  record AttrRef(Expr scope, String name, boolean absolute) implements Expr {
    /** Checks the arguments. */
    public AttrRef {
      Objects.requireNonNull(name, "name");
      if (absolute && scope != null) {
        throw new IllegalArgumentException("an absolute reference has no scope: ." + name);
      }
    }

    /** A plain reference to {@code name}. */
    public static AttrRef of(String name) {
      return new AttrRef(null, name, false);
    }
  }

  /** A unary operation. */
  record Unary(UnaryOp op, Expr operand) implements Expr {
    /** Checks the arguments. */
    public Unary {
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(operand, "operand");
    }
  }

  /** A binary operation, including the Elvis operator {@code a ?: b}. */
  record Binary(BinaryOp op, Expr left, Expr right) implements Expr {
    /** Checks the arguments. */
    public Binary {
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }
  }

  /** The conditional {@code condition ? ifTrue : ifFalse}. */
  record Conditional(Expr condition, Expr ifTrue, Expr ifFalse) implements Expr {
    /** Checks the arguments. */
    public Conditional {
      Objects.requireNonNull(condition, "condition");
      Objects.requireNonNull(ifTrue, "ifTrue");
      Objects.requireNonNull(ifFalse, "ifFalse");
    }
  }

  /** Parentheses, kept so that unparsing round-trips. */
  record Paren(Expr inner) implements Expr {
    /** Checks the argument. */
    public Paren {
      Objects.requireNonNull(inner, "inner");
    }
  }

  /** A subscript {@code base[index]}: list element by integer, ad attribute by string. */
  record Subscript(Expr base, Expr index) implements Expr {
    /** Checks the arguments. */
    public Subscript {
      Objects.requireNonNull(base, "base");
      Objects.requireNonNull(index, "index");
    }
  }

  /** A function call; the name is case-insensitive. */
  record Call(String name, List<Expr> args) implements Expr {
    /** Checks and copies the arguments. */
    public Call {
      Objects.requireNonNull(name, "name");
      args = List.copyOf(args);
    }
  }

  /** A list {@code { e1, e2, ... }}. */
  record ListExpr(List<Expr> items) implements Expr {
    /** Copies the items. */
    public ListExpr {
      items = List.copyOf(items);
    }
  }

  /** A nested ClassAd {@code [ a = 1; ... ]}. */
  record AdExpr(ClassAd ad) implements Expr {
    /** Checks the argument. */
    public AdExpr {
      Objects.requireNonNull(ad, "ad");
    }
  }

  /** Unary operators. */
  enum UnaryOp {
    /** {@code -x}. */
    MINUS("-"),
    /** {@code +x}. */
    PLUS("+"),
    /** {@code !x}. */
    NOT("!"),
    /** {@code ~x}. */
    BITWISE_NOT("~");

    private final String symbol;

    UnaryOp(String symbol) {
      this.symbol = symbol;
    }

    /** The operator as written. */
    public String symbol() {
      return symbol;
    }
  }

  /** Binary operators with HTCondor's precedence (higher binds tighter). */
  enum BinaryOp {
    /** {@code a ?: b}: a unless a is undefined. */
    ELVIS("?:", 0),
    /** {@code ||}. */
    OR("||", 1),
    /** {@code &&}. */
    AND("&&", 2),
    /** {@code |}. */
    BITWISE_OR("|", 3),
    /** {@code ^}. */
    BITWISE_XOR("^", 4),
    /** {@code &}. */
    BITWISE_AND("&", 5),
    /** {@code ==}, case-insensitive on strings. */
    EQUAL("==", 6),
    /** {@code !=}. */
    NOT_EQUAL("!=", 6),
    /** {@code =?=} or {@code is}: same type and value, case-sensitive. */
    IS("is", 6),
    /** {@code =!=} or {@code isnt}. */
    ISNT("isnt", 6),
    /** {@code <}. */
    LESS("<", 7),
    /** {@code <=}. */
    LESS_OR_EQUAL("<=", 7),
    /** {@code >}. */
    GREATER(">", 7),
    /** {@code >=}. */
    GREATER_OR_EQUAL(">=", 7),
    /** {@code <<}. */
    LEFT_SHIFT("<<", 8),
    /** {@code >>}, arithmetic. */
    RIGHT_SHIFT(">>", 8),
    /** {@code >>>}, logical. */
    URIGHT_SHIFT(">>>", 8),
    /** {@code +}. */
    ADD("+", 9),
    /** {@code -}. */
    SUBTRACT("-", 9),
    /** {@code *}. */
    MULTIPLY("*", 10),
    /** {@code /}. */
    DIVIDE("/", 10),
    /** {@code %}. */
    MODULUS("%", 10);

    private final String symbol;
    private final int precedence;

    BinaryOp(String symbol, int precedence) {
      this.symbol = symbol;
      this.precedence = precedence;
    }

    /** The operator as HTCondor unparses it. */
    public String symbol() {
      return symbol;
    }

    /** Binding strength: 1 for {@code ||} up to 10 for {@code * / %}. */
    public int precedence() {
      return precedence;
    }
  }
}
