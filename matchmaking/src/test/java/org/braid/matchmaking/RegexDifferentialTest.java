package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The regular-expression functions against HTCondor's own (PCRE2) on hand-picked cases: empty
 * matches in substitutions, group references, options, anchors and classes. RE2/J matches them all
 * alike; what it cannot match alike (backreferences and lookaround in patterns, {@code $} before a
 * final newline) is listed in docs/classads.md and left out here.
 */
class RegexDifferentialTest {

  /** Each case a stand-alone expression (the strings are ClassAd literals, so {@code \\\\1}). */
  static final List<String> CASES =
      List.of(
          // empty matches in global substitution: HTCondor reads past the end, error
          "replaceAll(\"x*\", \"abc\", \"y\")",
          "replaceAll(\"b*\", \"abc\", \"y\")",
          "replaceAll(\"a*\", \"baaac\", \"-\")",
          "replaceAll(\"a|\", \"abc\", \"-\")",
          "replaceAll(\"c*$\", \"abc\", \"-\")",
          "replaceAll(\"$\", \"abc\", \"y\")",
          "replaceAll(\"x*\", \"\", \"y\")",
          "replaceAll(\"b|x*\", \"bb\", \"-\")",
          "regexps(\"x*\", \"abc\", \"y\", \"g\")",
          // empty matches that end before the end of the text
          "replaceAll(\"^\", \"abc\", \"y\")",
          "regexps(\"^\", \"abc\", \"y\", \"g\")",
          "regexps(\"^\", \"abc\", \"y\", \"gf\")",
          "replaceAll(\"\\\\b\", \"ab cd\", \"|\")",
          // first match only
          "replace(\"x*\", \"abc\", \"y\")",
          "replace(\"x*\", \"\", \"y\")",
          "regexps(\"x*\", \"abc\", \"y\")",
          "regexps(\"\", \"abc\", \"y\", \"f\")",
          "regexps(\"b\", \"abcb\", \"y\", \"f\")",
          "regexps(\"b\", \"abcb\", \"y\", \"g\")",
          "replaceAll(\"b\", \"abcb\", \"-\")",
          "replaceAll(\"x\", \"abc\", \"y\")",
          // group references
          "replaceAll(\"(b)\", \"abcb\", \"<\\\\1>\")",
          "replaceAll(\"(b)\", \"abcb\", \"<\\\\2>\")",
          "regexps(\"(a)(b)?\", \"xac\", \"[\\\\1\\\\2]\")",
          "regexps(\"(a)(b)?\", \"xabc\", \"[\\\\1\\\\2]\")",
          "regexps(\"(a)?(b)\", \"xbc\", \"[\\\\1\\\\2]\")",
          "regexps(\"(a)(b)?\", \"xac\", \"[\\\\0]\")",
          "regexps(\"a\", \"aXa\", \"\\\\y\")",
          "regexps(\"a\", \"aXa\", \"\\\\\")",
          "replaceAll(\"([0-9]+)-([0-9]+)\", \"1-2 and 30-40\", \"\\\\2:\\\\1\")",
          // options
          "regexp(\"a\", \"A\", \"i\")",
          "replaceAll(\"B\", \"abcb\", \"yy\", \"i\")",
          "regexp(\"^b\", \"a\\nb\", \"m\")",
          "regexp(\"^b\", \"a\\nb\")",
          "regexp(\"a.b\", \"a\\nb\", \"s\")",
          "regexp(\"a.b\", \"a\\nb\")",
          "regexp(\"a b\", \"ab\", \"x\")",
          "regexp(\"a#c\\nb\", \"ab\", \"x\")",
          "regexp(\"a[ ]b\", \"a b\", \"x\")",
          "regexp(\"a\\\\ b\", \"a b\", \"x\")",
          // syntax
          "regexp(\"[[:alpha:]]+\", \"ab\")",
          "regexp(\"[[:digit:]]\", \"ab\")",
          "regexp(\"a{2}\", \"aa\")",
          "regexp(\"a{2,3}b\", \"aab\")",
          "regexp(\"a{,2}\", \"a{,2}\")",
          "regexp(\"(\", \"a\")",
          "regexp(\"[\", \"a\")",
          "regexp(\"a**\", \"a\")",
          // 13 a's: PCRE still answers (with 25 it gives up at its match limit: HTCondor error)
          "regexp(\"((a+)+)+$\", \"aaaaaaaaaaaaab\")",
          "regexp(\"(x+x+)+y\", \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\")",
          "regexp(\"^(a|b)*c$\", \"ababababc\")",
          "regexp(\"\\\\d+\", \"a12\")",
          "regexp(\"\\\\w+\\\\s\\\\w+\", \"hello world\")",
          "regexp(\"(?i)abc\", \"xABCx\")",
          "regexp(\"(?:ab)+\", \"ababab\")",
          "regexpMember(\"^b\", { \"abc\", \"bcd\" })",
          "regexpMember(\"^z\", { \"abc\", undefined })",
          "regexpMember(\"(\", { \"abc\" })",
          "regexpMember(\"(\", { \"abc\", undefined })",
          "regexpMember(\"a\", { \"abc\", 1 })",
          "regexpMember(\"b\", { 1, \"abc\" })");

  @Test
  void regexCases_agreeWithHtcondor() throws Exception {
    DifferentialTest.requireOracle();
    List<String> lines = new ArrayList<>();
    for (String c : CASES) {
      lines.add("E\t" + c);
    }
    List<String> expected = Oracle.runRestarting(lines);
    assertEquals(lines.size(), expected.size());
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String ours = Canonical.of(lines.get(i));
      if (!ours.equals(expected.get(i))) {
        failures.add(
            CASES.get(i) + "\n    htcondor: " + expected.get(i) + "\n    braid:    " + ours);
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " regex cases disagree:\n" + String.join("\n", failures));
    }
  }
}
