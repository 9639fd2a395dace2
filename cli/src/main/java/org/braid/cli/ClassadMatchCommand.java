package org.braid.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.braid.matchmaking.ClassAd;
import org.braid.matchmaking.ClassAdJson;
import org.braid.matchmaking.MatchClassAd;
import org.braid.matchmaking.Matchmaker;
import org.braid.matchmaking.ParseOptions;
import org.braid.matchmaking.Value;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code braid classad match}: match and rank candidate ads against one request ad. */
@Command(
    name = "match",
    mixinStandardHelpOptions = true,
    description = {
      "Match and rank candidate ads against one request ad.",
      "",
      "A candidate matches when both ads' Requirements are true, each ad seeing the other as "
          + "'other' (HTCondor's MatchClassAd). Matches are ranked by the request's Rank, highest "
          + "first; ties keep file order and a rank that is not a number counts as 0. For each "
          + "rejected candidate it names the clauses of either Requirements that were false, "
          + "undefined or error, with the values they saw. Ads are in new syntax "
          + "([ a = 1; ... ]) or old syntax (Name = expr per line, ads separated by blank lines)."
    })
final class ClassadMatchCommand implements Runnable {

  @Spec CommandSpec spec;

  @Option(
      names = "--request",
      required = true,
      paramLabel = "FILE",
      description = "The request ad.")
  Path request;

  @Option(
      names = "--candidates",
      required = true,
      paramLabel = "FILE",
      description = "The candidate ads, in order.")
  Path candidates;

  @Option(
      names = "--paper",
      description =
          "Read the paper's notation (5M/sec, lines ending in ';') and its 'requirement' "
              + "attribute as Requirements where an ad has none. Default: strict HTCondor.")
  boolean paper;

  @Option(names = "--json", description = "Print the ranking as JSON.")
  boolean json;

  @Override
  public void run() {
    ParseOptions o = ClassadCommand.options(paper);
    List<ClassAd> reqs = ClassadCommand.readAds(request, "request", o);
    if (reqs.size() != 1) {
      throw new IllegalArgumentException(
          "request file " + request + " must hold exactly one ad, found " + reqs.size());
    }
    List<ClassAd> cands = ClassadCommand.readAds(candidates, "candidates", o);
    Matchmaker mm = Matchmaker.builder(reqs.get(0)).paperAliases(paper).build();
    Matchmaker.Ranking r = mm.rank(cands);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(json(r));
    } else {
      text(out, r);
    }
    out.flush();
  }

  private static String name(int index, ClassAd ad) {
    String label = ClassadCommand.label(ad);
    return "candidate " + (index + 1) + (label == null ? "" : " (" + label + ")");
  }

  private static void text(PrintWriter out, Matchmaker.Ranking r) {
    out.println(
        r.candidates()
            + " candidates: "
            + r.matches().size()
            + " match, "
            + r.rejections().size()
            + " rejected");
    if (!r.matches().isEmpty()) {
      out.println("matches, best first:");
      int place = 1;
      for (Matchmaker.Match m : r.matches()) {
        out.println(
            "  " + place++ + ". " + name(m.index(), m.candidate()) + ": rank " + number(m.rank()));
      }
    }
    if (!r.rejections().isEmpty()) {
      out.println("rejected:");
      for (Matchmaker.Rejection rej : r.rejections()) {
        out.println("  " + name(rej.index(), rej.candidate()) + ":");
        for (Matchmaker.FailedClause fc : rej.reasons()) {
          out.println("    " + fc.explain());
        }
      }
    }
    if (!r.requestClauses().isEmpty()) {
      out.println("request clauses:");
      for (Matchmaker.ClauseSummary c : r.requestClauses()) {
        out.println("  " + c.clause() + ": rejected " + c.rejected() + " of " + r.candidates());
      }
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static String json(Matchmaker.Ranking r) {
    ObjectNode root = Mappers.json().createObjectNode();
    root.put("candidates", r.candidates());
    ArrayNode matches = root.putArray("matches");
    for (Matchmaker.Match m : r.matches()) {
      ObjectNode n = matches.addObject();
      n.put("candidate", m.index() + 1);
      n.put("rank", m.rank());
      n.put("candidateRank", m.candidateRank());
      n.set("ad", parse(ClassAdJson.toJson(m.candidate(), false)));
    }
    ArrayNode rejected = root.putArray("rejected");
    for (Matchmaker.Rejection rej : r.rejections()) {
      ObjectNode n = rejected.addObject();
      n.put("candidate", rej.index() + 1);
      ArrayNode reasons = n.putArray("reasons");
      for (Matchmaker.FailedClause fc : rej.reasons()) {
        ObjectNode c = reasons.addObject();
        c.put("side", fc.side() == MatchClassAd.Side.LEFT ? "request" : "candidate");
        c.put("clause", fc.clause());
        c.put("value", fc.value().unparse());
        ObjectNode refs = c.putObject("references");
        for (Map.Entry<String, Value> e : fc.references().entrySet()) {
          refs.put(e.getKey(), e.getValue().unparse());
        }
        c.put("explanation", fc.explain());
      }
    }
    ArrayNode clauses = root.putArray("requestClauses");
    for (Matchmaker.ClauseSummary c : r.requestClauses()) {
      clauses.addObject().put("clause", c.clause()).put("rejected", c.rejected());
    }
    return root.toString();
  }

  private static com.fasterxml.jackson.databind.JsonNode parse(String json) {
    try {
      return Mappers.json().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
