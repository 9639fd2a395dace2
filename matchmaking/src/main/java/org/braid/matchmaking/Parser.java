package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.braid.matchmaking.Expr.BinaryOp;
import org.braid.matchmaking.Expr.UnaryOp;

/** Recursive-descent parser for new-syntax ClassAds and expressions, with HTCondor precedence. */
final class Parser {

  private final String src;
  private final List<Token> tokens;
  private final ParseOptions options;
  private int i;
  private int depth;

  private Parser(String src, List<Token> tokens, ParseOptions options) {
    this.src = src;
    this.tokens = tokens;
    this.options = options;
  }

  static Parser over(String src, ParseOptions options) throws ClassAdParseException {
    checkLength(src, options);
    return new Parser(src, Lexer.tokenize(src, !options.strict()), options);
  }

  /**
   * Rejects text longer than {@link ParseOptions#maxLength()}. The message gives no length: text
   * read through {@link BoundedLineReader} or {@link ClassAds#readText} is cut just past the limit.
   */
  static void checkLength(String src, ParseOptions options) throws ClassAdParseException {
    if (src.length() > options.maxLength()) {
      throw ClassAdParseException.at(
          src, "input exceeds the limit of " + options.maxLength() + " characters", 0);
    }
  }

  /** Parses a whole expression; nothing may follow it. */
  Expr wholeExpression() throws ClassAdParseException {
    Expr e = expression();
    expectEnd();
    return e;
  }

  /** Parses a whole new-syntax ad; nothing may follow it. */
  ClassAd wholeAd() throws ClassAdParseException {
    if (!peek().is("[")) {
      throw error("expected '[' to start a ClassAd, found " + peek().describe(), peek());
    }
    ClassAd ad = ad();
    expectEnd();
    return ad;
  }

  /** Parses consecutive new-syntax ads up to the end of input. */
  List<ClassAd> adSequence() throws ClassAdParseException {
    List<ClassAd> out = new ArrayList<>();
    while (peek().kind() != Token.Kind.EOF) {
      if (!peek().is("[")) {
        throw error("expected '[' to start a ClassAd, found " + peek().describe(), peek());
      }
      out.add(ad());
      if (peek().is(",") || peek().is(";")) {
        i++;
      }
    }
    return out;
  }

  /** Parses {@code name = expr} statements (old syntax, one line) and adds them to {@code b}. */
  void statements(ClassAd.Builder b) throws ClassAdParseException {
    while (peek().kind() != Token.Kind.EOF) {
      Token name = next();
      if (name.kind() != Token.Kind.IDENTIFIER && name.kind() != Token.Kind.QUOTED_IDENTIFIER) {
        throw error("expected an attribute name, found " + name.describe(), name);
      }
      expect("=");
      b.set(name.text(), expression());
      if (peek().is(";") && !options.strict()) {
        i++;
        continue;
      }
      expectEnd();
    }
  }

  private void expectEnd() throws ClassAdParseException {
    Token t = peek();
    if (t.kind() != Token.Kind.EOF) {
      throw error("unexpected " + t.describe() + " after the end of the expression", t);
    }
  }

  private Token peek() {
    return tokens.get(i);
  }

  private Token next() {
    Token t = tokens.get(i);
    if (t.kind() != Token.Kind.EOF) {
      i++;
    }
    return t;
  }

  private Token expect(String punct) throws ClassAdParseException {
    Token t = next();
    if (!t.is(punct)) {
      throw error("expected '" + punct + "', found " + t.describe(), t);
    }
    return t;
  }

  private ClassAdParseException error(String reason, Token at) {
    return ClassAdParseException.at(src, reason, at.offset());
  }

  private void enter(Token at) throws ClassAdParseException {
    if (++depth > options.maxDepth()) {
      throw error("nesting deeper than the limit of " + options.maxDepth(), at);
    }
  }

  Expr expression() throws ClassAdParseException {
    Token start = peek();
    enter(start);
    Expr cond = binary(1);
    if (peek().is("?")) {
      i++;
      Expr t = expression();
      expect(":");
      Expr f = expression();
      depth--;
      return new Expr.Conditional(cond, t, f);
    }
    depth--;
    return cond;
  }

  /** Precedence climbing over the left-associative binary operators. */
  private Expr binary(int minPrec) throws ClassAdParseException {
    Expr left = unary();
    int chain = 0; // a left-leaning chain deepens the tree too
    while (true) {
      Token t = peek();
      BinaryOp op = binaryOp(t);
      if (op == null || op.precedence() < minPrec) {
        depth -= chain;
        return left;
      }
      i++;
      enter(t);
      chain++;
      Expr right = binary(op.precedence() + 1);
      left = new Expr.Binary(op, left, right);
    }
  }

  private static BinaryOp binaryOp(Token t) {
    if (t.kind() == Token.Kind.IDENTIFIER) {
      if (t.text().equalsIgnoreCase("is")) {
        return BinaryOp.IS;
      }
      if (t.text().equalsIgnoreCase("isnt")) {
        return BinaryOp.ISNT;
      }
      return null;
    }
    if (t.kind() != Token.Kind.PUNCT) {
      return null;
    }
    switch (t.text()) {
      case "||":
        return BinaryOp.OR;
      case "&&":
        return BinaryOp.AND;
      case "|":
        return BinaryOp.BITWISE_OR;
      case "^":
        return BinaryOp.BITWISE_XOR;
      case "&":
        return BinaryOp.BITWISE_AND;
      case "==":
        return BinaryOp.EQUAL;
      case "!=":
        return BinaryOp.NOT_EQUAL;
      case "=?=":
        return BinaryOp.IS;
      case "=!=":
        return BinaryOp.ISNT;
      case "<":
        return BinaryOp.LESS;
      case "<=":
        return BinaryOp.LESS_OR_EQUAL;
      case ">":
        return BinaryOp.GREATER;
      case ">=":
        return BinaryOp.GREATER_OR_EQUAL;
      case "<<":
        return BinaryOp.LEFT_SHIFT;
      case ">>":
        return BinaryOp.RIGHT_SHIFT;
      case ">>>":
        return BinaryOp.URIGHT_SHIFT;
      case "+":
        return BinaryOp.ADD;
      case "-":
        return BinaryOp.SUBTRACT;
      case "*":
        return BinaryOp.MULTIPLY;
      case "/":
        return BinaryOp.DIVIDE;
      case "%":
        return BinaryOp.MODULUS;
      default:
        return null;
    }
  }

  private Expr unary() throws ClassAdParseException {
    Token t = peek();
    UnaryOp op = null;
    if (t.is("-")) {
      op = UnaryOp.MINUS;
    } else if (t.is("+")) {
      op = UnaryOp.PLUS;
    } else if (t.is("!")) {
      op = UnaryOp.NOT;
    } else if (t.is("~")) {
      op = UnaryOp.BITWISE_NOT;
    }
    if (op == null) {
      return postfix();
    }
    Token n = tokens.get(i + 1);
    if (op == UnaryOp.MINUS && (n.kind() == Token.Kind.INTEGER || n.kind() == Token.Kind.REAL)) {
      return postfix(); // a negative number literal (primary() folds the sign)
    }
    i++;
    enter(t);
    Expr operand = unary();
    depth--;
    return new Expr.Unary(op, operand);
  }

  private Expr postfix() throws ClassAdParseException {
    Expr e = primary();
    int chain = 0; // selections and subscripts deepen the tree like nesting does
    try {
      while (true) {
        Token t = peek();
        if (t.is(".")) {
          i++;
          enter(t);
          chain++;
          e = new Expr.AttrRef(e, attributeName(), false);
        } else if (t.is("[")) {
          i++;
          enter(t);
          chain++;
          Expr idx = expression();
          expect("]");
          e = new Expr.Subscript(e, idx);
        } else if (t.is("?") && tokens.get(i + 1).is(":")) {
          // HTCondor binds the Elvis operator as tightly as selection; its right side is a
          // postfix expression (no unary operator).
          i += 2;
          enter(t);
          chain++;
          Expr rhs = postfix();
          e = new Expr.Binary(BinaryOp.ELVIS, e, rhs);
        } else {
          return e;
        }
      }
    } finally {
      depth -= chain;
    }
  }

  private String attributeName() throws ClassAdParseException {
    Token n = next();
    if (n.kind() == Token.Kind.IDENTIFIER || n.kind() == Token.Kind.QUOTED_IDENTIFIER) {
      return n.text();
    }
    throw error("expected an attribute name, found " + n.describe(), n);
  }

  private Expr primary() throws ClassAdParseException {
    Token t = next();
    if (t.is("-") && (peek().kind() == Token.Kind.INTEGER || peek().kind() == Token.Kind.REAL)) {
      // HTCondor folds a minus sign into the number that follows it.
      Token n = next();
      if (n.kind() == Token.Kind.INTEGER) {
        long v =
            n.text().chars().allMatch(Character::isDigit)
                ? Lexer.parseLong("-" + n.text())
                : -((Value.IntegerValue) n.value()).value();
        return new Expr.Literal(Value.of(v));
      }
      return new Expr.Literal(Value.of(-((Value.RealValue) n.value()).value()));
    }
    switch (t.kind()) {
      case INTEGER:
      case REAL:
      case STRING:
        return new Expr.Literal(t.value());
      case QUOTED_IDENTIFIER:
        return Expr.AttrRef.of(t.text());
      case IDENTIFIER:
        return identifier(t);
      case EOF:
        throw error("unexpected end of input, expected an expression", t);
      default:
        break;
    }
    if (t.is("(")) {
      enter(t);
      Expr inner = expression();
      depth--;
      expect(")");
      return new Expr.Paren(inner);
    }
    if (t.is(".")) {
      return new Expr.AttrRef(null, attributeName(), true);
    }
    if (t.is("{")) {
      i--;
      return list();
    }
    if (t.is("[")) {
      i--;
      return new Expr.AdExpr(ad());
    }
    throw error("unexpected " + t.describe() + ", expected an expression", t);
  }

  private Expr identifier(Token t) throws ClassAdParseException {
    switch (t.text().toLowerCase(Locale.ROOT)) {
      case "true":
        return new Expr.Literal(Value.TRUE);
      case "false":
        return new Expr.Literal(Value.FALSE);
      case "undefined":
        return new Expr.Literal(Value.UNDEFINED);
      case "error":
        return new Expr.Literal(Value.ERROR);
      case "is":
      case "isnt":
        throw error("unexpected keyword '" + t.text() + "', expected an expression", t);
      default:
        break;
    }
    if (!peek().is("(")) {
      return Expr.AttrRef.of(t.text());
    }
    Token open = next();
    enter(open);
    List<Expr> args = new ArrayList<>();
    if (!peek().is(")")) {
      args.add(expression());
      while (peek().is(",")) {
        i++;
        args.add(expression());
      }
    }
    expect(")");
    depth--;
    if (args.size() == 1
        && args.get(0) instanceof Expr.Literal lit
        && lit.value() instanceof Value.StringValue s) {
      // HTCondor converts absTime("...") and relTime("...") to time literals while parsing.
      boolean abs = t.text().equalsIgnoreCase("absTime");
      boolean rel = t.text().equalsIgnoreCase("relTime");
      if (abs && Times.parseAbs(s.value()) == null || rel && Times.parseRel(s.value()) == null) {
        throw error("not a valid " + t.text() + " string: " + s.value(), t);
      }
      if (abs) {
        return new Expr.Literal(Times.parseAbs(s.value()));
      }
    }
    return new Expr.Call(t.text(), args);
  }

  private Expr list() throws ClassAdParseException {
    Token open = expect("{");
    enter(open);
    List<Expr> items = new ArrayList<>();
    if (!peek().is("}")) {
      items.add(expression());
      while (peek().is(",")) {
        i++;
        items.add(expression());
      }
    }
    expect("}");
    depth--;
    return new Expr.ListExpr(items);
  }

  private ClassAd ad() throws ClassAdParseException {
    Token open = expect("[");
    enter(open);
    ClassAd.Builder b = ClassAd.builder();
    while (!peek().is("]")) {
      Token name = next();
      if (name.kind() != Token.Kind.IDENTIFIER && name.kind() != Token.Kind.QUOTED_IDENTIFIER) {
        throw error("expected an attribute name or ']', found " + name.describe(), name);
      }
      expect("=");
      b.set(name.text(), expression());
      if (peek().is(";")) {
        i++;
      } else if (!peek().is("]")) {
        throw error("expected ';' or ']', found " + peek().describe(), peek());
      }
    }
    expect("]");
    depth--;
    return b.build();
  }
}
