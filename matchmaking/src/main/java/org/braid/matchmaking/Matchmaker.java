package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Matches one request ad against candidate ads and ranks the matches, as HTCondor's negotiator does
 * with MatchClassAd: a candidate matches when the request's {@code Requirements} and the
 * candidate's {@code Requirements} both evaluate to true with each ad seeing the other as {@code
 * other} (and {@code target}). Matches are ordered by the request's {@code Rank} (highest first; a
 * rank that is not a number counts as 0.0); ties keep the input order.
 *
 * <p>For every rejected candidate it names the clauses (top-level {@code &&} terms) of either
 * Requirements that were false, undefined or error, with the values of the attributes they refer
 * to, like {@code condor_q -better-analyze}.
 *
 * <p>Source: Vazhkudai, Schopf and Foster, replica selection with ClassAds (paper 003, section
 * 2.3); HTCondor's matchClassad.cpp. Cost: one evaluation of each Requirements and of the Rank per
 * candidate, O(n log n) for the sort. Immutable and thread-safe.
 */
public final class Matchmaker {

  /** The attribute both ads' conditions are read from. */
  public static final String REQUIREMENTS = "Requirements";

  /** The attribute the request ranks candidates by. */
  public static final String RANK = "Rank";

  private final ClassAd request;
  private final ClassAd requestCtx;
  private final EvalOptions options;
  private final boolean paperAliases;
  private final List<Expr> requestClauses;
  private final Expr requestRequirements;
  private final Expr requestRank;
  private final List<String> requestClauseText;
  private final List<List<Ref>> requestClauseRefs;
  private final boolean explain;

  /** An attribute reference inside a clause, with its text computed once. */
  private record Ref(String label, Expr.AttrRef expr) {}

  private Matchmaker(Builder b) {
    this.options = b.options;
    this.paperAliases = b.paperAliases;
    this.request = withAliases(b.request, paperAliases);
    this.requestCtx = MatchClassAd.context(request, "adRight");
    this.requestClauses = clauses(request.lookup(REQUIREMENTS));
    this.requestRequirements = request.lookup(REQUIREMENTS);
    this.requestRank = request.lookup(RANK);
    this.requestClauseText = requestClauses.stream().map(Expr::unparse).toList();
    this.requestClauseRefs = requestClauses.stream().map(Matchmaker::refs).toList();
    this.explain = b.explain;
  }

  /**
   * A matchmaker for {@code request} with default options.
   *
   * @throws NullPointerException if {@code request} is null
   */
  public static Matchmaker of(ClassAd request) {
    return builder(request).build();
  }

  /**
   * A builder for a matchmaker for {@code request}.
   *
   * @throws NullPointerException if {@code request} is null
   */
  public static Builder builder(ClassAd request) {
    return new Builder(Objects.requireNonNull(request, "request"));
  }

  /** The request, after aliasing (see {@link Builder#paperAliases(boolean)}). */
  public ClassAd request() {
    return request;
  }

  /** In paper mode an ad's {@code requirement} stands for a missing {@code Requirements}. */
  static ClassAd withAliases(ClassAd ad, boolean aliases) {
    if (!aliases || ad.contains(REQUIREMENTS) || !ad.contains("requirement")) {
      return ad;
    }
    return ad.toBuilder().set(REQUIREMENTS, ad.lookup("requirement")).build();
  }

  /**
   * Matches and ranks the candidates.
   *
   * @throws NullPointerException if the list or an element is null
   */
  public Ranking rank(List<ClassAd> candidates) {
    Objects.requireNonNull(candidates, "candidates");
    List<Match> matches = new ArrayList<>();
    List<Rejection> rejections = new ArrayList<>();
    int[] rejectedBy = new int[requestClauses.size()];
    for (int k = 0; k < candidates.size(); k++) {
      ClassAd raw = Objects.requireNonNull(candidates.get(k), "candidate " + k);
      ClassAd cand = withAliases(raw, paperAliases);
      MatchClassAd m =
          MatchClassAd.withContexts(
              request, requestCtx, cand, MatchClassAd.context(cand, "adLeft"), options);
      // The same values as the match ad's rightMatchesLeft and leftMatchesRight, evaluated
      // directly in each ad's scope.
      Value req = evaluate(m, MatchClassAd.Side.LEFT, requestRequirements);
      Expr candExpr = cand.lookup(REQUIREMENTS);
      Value candReq = evaluate(m, MatchClassAd.Side.RIGHT, candExpr);
      if (isTrue(req) && isTrue(candReq)) {
        double rank = MatchClassAd.number(evaluate(m, MatchClassAd.Side.LEFT, requestRank));
        matches.add(new Match(k, raw, rank, m.rank(MatchClassAd.Side.RIGHT)));
        continue;
      }
      List<FailedClause> reasons = new ArrayList<>();
      if (explain && !isTrue(req)) {
        explain(
            m,
            MatchClassAd.Side.LEFT,
            requestClauses,
            requestClauseText,
            requestClauseRefs,
            req,
            reasons,
            rejectedBy);
      }
      if (explain && !isTrue(candReq)) {
        List<Expr> cc = clauses(candExpr);
        explain(
            m,
            MatchClassAd.Side.RIGHT,
            cc,
            cc.stream().map(Expr::unparse).toList(),
            cc.stream().map(Matchmaker::refs).toList(),
            candReq,
            reasons,
            null);
      }
      rejections.add(new Rejection(k, raw, reasons));
    }
    // List.sort is stable: equal ranks keep the candidates' input order.
    matches.sort(Comparator.comparingDouble(Match::rank).reversed());
    List<ClauseSummary> summary = new ArrayList<>();
    for (int c = 0; c < requestClauses.size(); c++) {
      summary.add(new ClauseSummary(requestClauses.get(c).unparse(), rejectedBy[c]));
    }
    return new Ranking(matches, rejections, summary, candidates.size());
  }

  private static Value evaluate(MatchClassAd m, MatchClassAd.Side side, Expr e) {
    return e == null ? Value.UNDEFINED : m.evaluate(side, e);
  }

  private static boolean isTrue(Value v) {
    return v instanceof Value.BooleanValue b && b.value();
  }

  private static void explain(
      MatchClassAd m,
      MatchClassAd.Side side,
      List<Expr> clauses,
      List<String> texts,
      List<List<Ref>> refs,
      Value whole,
      List<FailedClause> out,
      int[] counts) {
    if (clauses.isEmpty()) {
      out.add(new FailedClause(side, REQUIREMENTS, whole, Map.of(), "Requirements is not defined"));
      return;
    }
    int before = out.size();
    for (int c = 0; c < clauses.size(); c++) {
      Expr clause = clauses.get(c);
      Value v = m.evaluate(side, clause);
      if (!isTrue(v)) {
        Map<String, Value> values = new LinkedHashMap<>();
        for (Ref r : refs.get(c)) {
          values.put(r.label(), m.evaluate(side, r.expr()));
        }
        out.add(new FailedClause(side, texts.get(c), v, values, null));
        if (counts != null) {
          counts[c]++;
        }
      }
    }
    if (out.size() == before) {
      // every clause alone is true, yet the whole is not (e.g. undefined && ... combinations)
      out.add(new FailedClause(side, REQUIREMENTS, whole, Map.of(), null));
    }
  }

  /** The top-level {@code &&} terms of an expression, parentheses removed. */
  static List<Expr> clauses(Expr e) {
    List<Expr> out = new ArrayList<>();
    if (e != null) {
      split(e, out);
    }
    return out;
  }

  private static void split(Expr e, List<Expr> out) {
    if (e instanceof Expr.Paren p) {
      Expr inner = p.inner();
      if (inner instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
        split(inner, out);
        return;
      }
    }
    if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
      split(b.left(), out);
      split(b.right(), out);
      return;
    }
    out.add(e);
  }

  /** The attribute references of a clause (at most 8, first occurrence each). */
  private static List<Ref> refs(Expr clause) {
    Map<String, Expr.AttrRef> out = new LinkedHashMap<>();
    collectRefs(clause, out);
    List<Ref> refs = new ArrayList<>();
    out.forEach((label, e) -> refs.add(new Ref(label, e)));
    return refs;
  }

  private static void collectRefs(Expr e, Map<String, Expr.AttrRef> out) {
    if (out.size() >= 8) {
      return;
    }
    if (e instanceof Expr.AttrRef r) {
      String key = r.unparse().strip();
      if (!out.containsKey(key) && !isScopeName(r)) {
        out.put(key, r);
      }
      return;
    }
    if (e instanceof Expr.Binary b) {
      collectRefs(b.left(), out);
      collectRefs(b.right(), out);
    } else if (e instanceof Expr.Unary u) {
      collectRefs(u.operand(), out);
    } else if (e instanceof Expr.Paren p) {
      collectRefs(p.inner(), out);
    } else if (e instanceof Expr.Conditional c) {
      collectRefs(c.condition(), out);
      collectRefs(c.ifTrue(), out);
      collectRefs(c.ifFalse(), out);
    } else if (e instanceof Expr.Call c) {
      for (Expr arg : c.args()) {
        collectRefs(arg, out);
      }
    } else if (e instanceof Expr.Subscript s) {
      collectRefs(s.base(), out);
      collectRefs(s.index(), out);
    }
  }

  private static boolean isScopeName(Expr.AttrRef r) {
    if (r.scope() != null || r.absolute()) {
      return false;
    }
    switch (r.name().toLowerCase(Locale.ROOT)) {
      case "my":
      case "other":
      case "target":
      case "parent":
      case "self":
      case "toplevel":
      case "root":
        return true;
      default:
        return false;
    }
  }

  /** One matching candidate. */
  public record Match(int index, ClassAd candidate, double rank, double candidateRank) {}

  /**
   * One false, undefined or error clause of a Requirements expression.
   *
   * @param side whose Requirements: LEFT is the request, RIGHT the candidate
   * @param clause the clause as written (unparsed)
   * @param value what it evaluated to
   * @param references the attribute references in the clause and their values
   * @param note a remark replacing the clause analysis, or null
   */
  public record FailedClause(
      MatchClassAd.Side side,
      String clause,
      Value value,
      Map<String, Value> references,
      String note) {

    /**
     * Copies the references, keeping their order (the order they appear in the clause; {@code
     * Map.copyOf} would shuffle it differently in every JVM).
     */
    public FailedClause {
      references = Collections.unmodifiableMap(new LinkedHashMap<>(references));
    }

    /** One line: "request clause other.x > 5 is false (other.x = 3)". */
    public String explain() {
      String who = side == MatchClassAd.Side.LEFT ? "request" : "candidate";
      if (note != null) {
        return who + " " + note;
      }
      StringBuilder sb =
          new StringBuilder(who)
              .append(" clause ")
              .append(clause)
              .append(" is ")
              .append(value.unparse());
      if (!references.isEmpty()) {
        sb.append(" (");
        boolean first = true;
        for (Map.Entry<String, Value> e : references.entrySet()) {
          if (!first) {
            sb.append(", ");
          }
          first = false;
          sb.append(e.getKey()).append(" = ").append(e.getValue().unparse());
        }
        sb.append(')');
      }
      return sb.toString();
    }
  }

  /** A candidate that does not match, and why. */
  public record Rejection(int index, ClassAd candidate, List<FailedClause> reasons) {
    /** Copies the reasons. */
    public Rejection {
      reasons = List.copyOf(reasons);
    }
  }

  /** How many candidates one clause of the request's Requirements rejected. */
  public record ClauseSummary(String clause, int rejected) {}

  /**
   * The outcome: matches best first, rejections in input order, and per request clause the number
   * of candidates it rejected.
   */
  public record Ranking(
      List<Match> matches,
      List<Rejection> rejections,
      List<ClauseSummary> requestClauses,
      int candidates) {
    /** Copies the lists. */
    public Ranking {
      matches = List.copyOf(matches);
      rejections = List.copyOf(rejections);
      requestClauses = List.copyOf(requestClauses);
    }
  }

  /** Builds a {@link Matchmaker}. */
  public static final class Builder {
    private final ClassAd request;
    private EvalOptions options = EvalOptions.DEFAULT;
    private boolean paperAliases;
    private boolean explain = true;

    private Builder(ClassAd request) {
      this.request = request;
    }

    /**
     * Evaluation options. Default: {@link EvalOptions#DEFAULT}.
     *
     * @throws NullPointerException if {@code o} is null
     */
    public Builder options(EvalOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /**
     * Reads the paper's {@code requirement} attribute as {@code Requirements} when an ad has no
     * {@code Requirements}. Default: false (HTCondor's behaviour).
     */
    public Builder paperAliases(boolean on) {
      this.paperAliases = on;
      return this;
    }

    /**
     * Whether to analyse why each rejected candidate failed (per-clause reasons and the clause
     * summary). Off leaves rejections with no reasons and makes ranking cheaper. Default: true.
     */
    public Builder explain(boolean on) {
      this.explain = on;
      return this;
    }

    /** Returns the matchmaker. */
    public Matchmaker build() {
      return new Matchmaker(this);
    }
  }
}
