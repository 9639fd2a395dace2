package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Symmetric matching of generated ad pairs agrees with HTCondor's ClassAd.symmetricMatch. */
class MatchDifferentialTest {

  private static final String[] SCOPES = {"other.", "target.", "my.", "", "MY.", "TARGET."};
  private static final String[] ATTRS = {"Memory", "Disk", "Name", "Cpus", "Missing"};

  static String clause(Random rnd) {
    String attr = SCOPES[rnd.nextInt(SCOPES.length)] + ATTRS[rnd.nextInt(ATTRS.length)];
    switch (rnd.nextInt(6)) {
      case 0:
        return attr + " >= " + rnd.nextInt(10);
      case 1:
        return attr + " == \"" + (rnd.nextBoolean() ? "a" : "B") + "\"";
      case 2:
        return "isUndefined(" + attr + ")";
      case 3:
        return attr + " =?= " + rnd.nextInt(3);
      case 4:
        return "(" + attr + " < 5 || " + attr + " > 7)";
      default:
        return attr + " * 2 != " + rnd.nextInt(10);
    }
  }

  static String ad(Random rnd) {
    StringBuilder sb = new StringBuilder("[ ");
    for (String a : ATTRS) {
      if (a.equals("Missing") || rnd.nextInt(4) == 0) {
        continue;
      }
      sb.append(a).append(" = ");
      sb.append(
          a.equals("Name")
              ? (rnd.nextBoolean() ? "\"a\"" : "\"b\"")
              : Integer.toString(rnd.nextInt(10)));
      sb.append("; ");
    }
    if (rnd.nextInt(10) > 0) {
      int n = 1 + rnd.nextInt(3);
      sb.append("Requirements = ");
      for (int i = 0; i < n; i++) {
        sb.append(i > 0 ? (rnd.nextInt(4) == 0 ? " || " : " && ") : "").append(clause(rnd));
      }
      sb.append("; ");
    }
    sb.append("Rank = ").append(SCOPES[rnd.nextInt(2)]).append("Memory");
    return sb.append(" ]").toString();
  }

  @Test
  void generatedPairs_matchLikeHtcondor() throws Exception {
    DifferentialTest.requireOracle();
    long seed = Long.getLong("classad.seed", 7L);
    Random rnd = new Random(seed);
    List<String> cases = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      cases.add("M\t" + ad(rnd) + "\t" + ad(rnd));
    }
    List<String> expected;
    try (Oracle o = Oracle.start()) {
      expected = o.run(cases);
    }
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      String[] parts = cases.get(i).split("\t");
      MatchClassAd m = MatchClassAd.of(ClassAds.parse(parts[1]), ClassAds.parse(parts[2]));
      String ours =
          m.symmetricMatch()
              + ","
              + (m.leftMatchesRight() instanceof Value.BooleanValue b && b.value())
              + ","
              + (m.rightMatchesLeft() instanceof Value.BooleanValue c && c.value());
      if (!ours.equals(expected.get(i))) {
        failures.add(cases.get(i) + "\n  htcondor " + expected.get(i) + "\n  braid    " + ours);
      }
    }
    if (!failures.isEmpty()) {
      fail(
          failures.size()
              + " of 2000 pairs disagree (seed "
              + seed
              + "):\n"
              + String.join("\n", failures.subList(0, Math.min(10, failures.size()))));
    }
  }
}
