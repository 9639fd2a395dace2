package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MatchmakerTest {

  static ClassAd ad(String s) throws ClassAdParseException {
    return ClassAds.parse(s, ParseOptions.PAPER);
  }

  @Test
  void rank_ordersMatchesByRequestRankHighestFirst() throws Exception {
    ClassAd req = ad("[ Requirements = other.Bw > 5M; Rank = other.Bw ]");
    List<ClassAd> cands =
        List.of(
            ad("[ Name = \"a\"; Bw = 6M; Requirements = true ]"),
            ad("[ Name = \"b\"; Bw = 9M; Requirements = true ]"),
            ad("[ Name = \"c\"; Bw = 7M; Requirements = true ]"));
    Matchmaker.Ranking r = Matchmaker.of(req).rank(cands);
    assertEquals(List.of(1, 2, 0), r.matches().stream().map(Matchmaker.Match::index).toList());
    assertEquals(9e6, r.matches().get(0).rank());
  }

  @Test
  void rank_tiesKeepInputOrder_andNonNumericRankCountsAsZero() throws Exception {
    ClassAd req = ad("[ Requirements = true; Rank = other.R ]");
    List<ClassAd> cands =
        List.of(
            ad("[ R = 1; Requirements = true ]"),
            ad("[ R = \"high\"; Requirements = true ]"),
            ad("[ R = 1; Requirements = true ]"),
            ad("[ Requirements = true ]"),
            ad("[ R = 0.0; Requirements = true ]"));
    Matchmaker.Ranking r = Matchmaker.of(req).rank(cands);
    assertEquals(
        List.of(0, 2, 1, 3, 4), r.matches().stream().map(Matchmaker.Match::index).toList());
    assertEquals(0.0, r.matches().get(2).rank());
  }

  @Test
  void match_requirementsFalse_rejectsWithClauseAndValues() throws Exception {
    ClassAd req = ad("[ Requirements = other.Bw > 5M && other.Space >= 1G; Rank = other.Bw ]");
    ClassAd slow = ad("[ Bw = 4M; Space = 2G; Requirements = true ]");
    Matchmaker.Ranking r = Matchmaker.of(req).rank(List.of(slow));
    assertEquals(0, r.matches().size());
    Matchmaker.FailedClause fc = r.rejections().get(0).reasons().get(0);
    assertEquals("request clause other.Bw > 5000000 is false (other.Bw = 4000000)", fc.explain());
    assertEquals(1, r.requestClauses().get(0).rejected());
    assertEquals(0, r.requestClauses().get(1).rejected());
  }

  @Test
  void match_requirementsUndefined_rejectsWithReason() throws Exception {
    ClassAd req = ad("[ Requirements = other.Bw > 5; Rank = 0 ]");
    ClassAd noBw = ad("[ Requirements = true ]");
    Matchmaker.Ranking r = Matchmaker.of(req).rank(List.of(noBw));
    assertEquals(
        "request clause other.Bw > 5 is undefined (other.Bw = undefined)",
        r.rejections().get(0).reasons().get(0).explain());
  }

  @Test
  void match_explanation_listsReferencesInTheClausesOrder_inEveryRun() throws Exception {
    // Six references: an order that depended on hashing (it once did: Map.copyOf) would come out
    // in this one order by chance once in 720 runs.
    ClassAd req =
        ad(
            "[ Requirements = other.A + other.B + other.C + other.D + other.E > other.F; Rank = 0 ]");
    ClassAd cand = ad("[ A = 1; B = 2; C = 3; D = 4; E = 5; F = 100; Requirements = true ]");
    Matchmaker.Ranking r = Matchmaker.of(req).rank(List.of(cand));
    assertEquals(
        "request clause other.A + other.B + other.C + other.D + other.E > other.F is false"
            + " (other.A = 1, other.B = 2, other.C = 3, other.D = 4, other.E = 5, other.F = 100)",
        r.rejections().get(0).reasons().get(0).explain());
  }

  @Test
  void match_candidatePolicyRefuses_isExplainedOnTheCandidateSide() throws Exception {
    ClassAd req = ad("[ Owner = \"bob\"; Requirements = true; Rank = 0 ]");
    ClassAd cand = ad("[ Requirements = other.Owner == \"alice\" ]");
    Matchmaker.Ranking r = Matchmaker.of(req).rank(List.of(cand));
    assertEquals(
        "candidate clause other.Owner == \"alice\" is false (other.Owner = \"bob\")",
        r.rejections().get(0).reasons().get(0).explain());
  }

  @Test
  void match_missingRequirements_isNotAMatch() throws Exception {
    Matchmaker.Ranking r =
        Matchmaker.of(ad("[ Requirements = true ]")).rank(List.of(ad("[ x = 1 ]")));
    assertEquals(
        "candidate Requirements is not defined", r.rejections().get(0).reasons().get(0).explain());
  }

  @Test
  void paperExample_matchesTheStorageAdWithPaperAliases() throws Exception {
    ClassAd request =
        ad(
            "hostname = \"comet.xyz.com\";\nreqRDBandwidth = 5M/sec;\n"
                + "rank = other.AvgRDBandwidth;\nrequirement = other.AvgRDBandwidth > 5M/sec;\n");
    ClassAd storage =
        ad(
            "hostname = \"dpsslx04.lbl.gov\";\nvolume = \"/dev/sandbox\";\navailableSpace = 50G;\n"
                + "AvgRDBandwidth = 6M/sec;\nrequirement = true;\n");
    Matchmaker strict = Matchmaker.of(request);
    assertEquals(0, strict.rank(List.of(storage)).matches().size());
    Matchmaker paper = Matchmaker.builder(request).paperAliases(true).build();
    Matchmaker.Ranking r = paper.rank(List.of(storage));
    assertEquals(1, r.matches().size());
    assertEquals(6e6, r.matches().get(0).rank());
  }

  @Test
  void myAndTarget_resolveInTheMatchContext() throws Exception {
    ClassAd req = ad("[ x = 1; Requirements = my.x == 1 && target.y == 2; Rank = 0 ]");
    ClassAd cand = ad("[ y = 2; Requirements = MY.y == 2 && TARGET.x == 1 ]");
    MatchClassAd m = MatchClassAd.of(req, cand);
    assertTrue(m.symmetricMatch());
    // strict scoping: an unscoped name does not reach the other ad
    MatchClassAd m2 = MatchClassAd.of(ad("[ Requirements = y == 2 ]"), cand);
    assertEquals(Value.FALSE, Value.of(m2.symmetricMatch()));
  }
}
