package org.braid.matchmaking;

import java.util.Objects;

/**
 * Two ads put side by side for matching, as HTCondor's MatchClassAd does: each ad sits in a context
 * where {@code other} and {@code target} name the partner and {@code my} names itself, all inside
 * one enclosing match ad. Unscoped names still resolve only in their own ad (strict scoping);
 * {@code other.x} reaches the partner.
 *
 * <p>The enclosing ad is, as in HTCondor:
 *
 * <pre>
 * [ symmetricMatch = leftMatchesRight &amp;&amp; rightMatchesLeft;
 *   leftMatchesRight = adRight.ad.requirements; rightMatchesLeft = adLeft.ad.requirements;
 *   leftRankValue = adLeft.ad.rank; rightRankValue = adRight.ad.rank;
 *   adLeft = [ other = .adRight.ad; target = .adRight.ad; my = ad; ad = LEFT ];
 *   adRight = [ other = .adLeft.ad; target = .adLeft.ad; my = ad; ad = RIGHT ] ]
 * </pre>
 *
 * Immutable and thread-safe; each evaluation starts afresh.
 */
public final class MatchClassAd {

  /** Which of the two ads. */
  public enum Side {
    /** The left ad (for the {@link Matchmaker}: the request). */
    LEFT,
    /** The right ad (for the {@link Matchmaker}: the candidate). */
    RIGHT
  }

  private static final Expr LEFT_REQ = parse("adLeft.ad.requirements");
  private static final Expr RIGHT_REQ = parse("adRight.ad.requirements");
  private static final Expr SYMMETRIC = parse("leftMatchesRight && rightMatchesLeft");
  private static final Expr LEFT_RANK = parse("adLeft.ad.rank");
  private static final String[] MATCH_NAMES = {
    "symmetricMatch",
    "leftMatchesRight",
    "rightMatchesLeft",
    "leftRankValue",
    "rightRankValue",
    "adLeft",
    "adRight"
  };
  private static final String[] CTX_NAMES = {"other", "target", "my", "ad"};
  private static final Expr TO_RIGHT = parse(".adRight.ad");
  private static final Expr TO_LEFT = parse(".adLeft.ad");
  private static final Expr MY = Expr.AttrRef.of("ad");
  private static final Expr RIGHT_RANK = parse("adRight.ad.rank");

  private final ClassAd left;
  private final ClassAd right;
  private final ClassAd matchAd;
  private final Env root;
  private final Env leftEnv;
  private final Env rightEnv;
  private final EvalOptions options;

  private MatchClassAd(
      ClassAd left, ClassAd leftCtx, ClassAd right, ClassAd rightCtx, EvalOptions o) {
    this.left = left;
    this.right = right;
    this.options = o;
    this.matchAd =
        ClassAd.ofDistinct(
            MATCH_NAMES,
            new Expr[] {
              SYMMETRIC,
              RIGHT_REQ,
              LEFT_REQ,
              LEFT_RANK,
              RIGHT_RANK,
              new Expr.AdExpr(leftCtx),
              new Expr.AdExpr(rightCtx)
            });
    this.root = new Env(matchAd, null);
    this.leftEnv = new Env(left, new Env(leftCtx, root));
    this.rightEnv = new Env(right, new Env(rightCtx, root));
  }

  /**
   * Puts two ads side by side.
   *
   * @throws NullPointerException if an argument is null
   */
  public static MatchClassAd of(ClassAd left, ClassAd right, EvalOptions options) {
    Objects.requireNonNull(left, "left");
    Objects.requireNonNull(right, "right");
    Objects.requireNonNull(options, "options");
    return new MatchClassAd(
        left, context(left, "adRight"), right, context(right, "adLeft"), options);
  }

  /** Puts two ads side by side with the default evaluation options. */
  public static MatchClassAd of(ClassAd left, ClassAd right) {
    return of(left, right, EvalOptions.DEFAULT);
  }

  /** For a request reused against many candidates: its context ad, built once. */
  static MatchClassAd withContexts(
      ClassAd left, ClassAd leftCtx, ClassAd right, ClassAd rightCtx, EvalOptions o) {
    return new MatchClassAd(left, leftCtx, right, rightCtx, o);
  }

  static ClassAd context(ClassAd ad, String partner) {
    Expr other = partner.equals("adRight") ? TO_RIGHT : TO_LEFT;
    return ClassAd.ofDistinct(CTX_NAMES, new Expr[] {other, other, MY, new Expr.AdExpr(ad)});
  }

  private static Expr parse(String s) {
    try {
      return ClassAds.parseExpression(s);
    } catch (ClassAdParseException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The left ad. */
  public ClassAd left() {
    return left;
  }

  /** The right ad. */
  public ClassAd right() {
    return right;
  }

  /** The enclosing match ad (see the class comment). */
  public ClassAd matchAd() {
    return matchAd;
  }

  /**
   * Evaluates {@code e} as if it were written in the ad on {@code side}.
   *
   * @throws NullPointerException if an argument is null
   */
  public Value evaluate(Side side, Expr e) {
    Objects.requireNonNull(side, "side");
    Objects.requireNonNull(e, "e");
    return Evaluation.run(new Evaluator(root, options), e, side == Side.LEFT ? leftEnv : rightEnv);
  }

  /** The value of attribute {@code name} of the ad on {@code side} (undefined if absent). */
  public Value attribute(Side side, String name) {
    ClassAd ad = side == Side.LEFT ? left : right;
    Expr e = ad.lookup(name);
    return e == null ? Value.UNDEFINED : evaluate(side, e);
  }

  /** The left ad's Requirements: does the right ad suit the left one? */
  public Value rightMatchesLeft() {
    return Evaluation.run(new Evaluator(root, options), LEFT_REQ, root);
  }

  /** The right ad's Requirements: does the left ad suit the right one? */
  public Value leftMatchesRight() {
    return Evaluation.run(new Evaluator(root, options), RIGHT_REQ, root);
  }

  /** True when both Requirements evaluate to true. */
  public boolean symmetricMatch() {
    return Evaluation.run(new Evaluator(root, options), SYMMETRIC, root)
            instanceof Value.BooleanValue b
        && b.value();
  }

  /**
   * The Rank of the ad on {@code side} as a number: integers and reals as they are, anything else
   * (missing, undefined, error, a string, NaN) as 0.0.
   */
  public double rank(Side side) {
    return number(attribute(side, "Rank"));
  }

  static double number(Value v) {
    if (v instanceof Value.IntegerValue i) {
      return i.value();
    }
    if (v instanceof Value.RealValue r && !Double.isNaN(r.value())) {
      return r.value();
    }
    return 0.0;
  }
}
