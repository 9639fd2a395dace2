package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden files for the parser and unparser, plus parse-error positions. */
class ParserGoldenTest {

  static Stream<String[]> golden() throws IOException {
    try (InputStream in = ParserGoldenTest.class.getResourceAsStream("/golden/unparse.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text
          .lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .map(l -> l.split(" ==> ", 2))
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("golden")
  void unparse_matchesGoldenAndRoundTrips(String input, String expected) throws Exception {
    Expr e = ClassAds.parseExpression(input);
    assertEquals(expected, e.unparse(), input);
    Expr again = ClassAds.parseExpression(e.unparse());
    assertEquals(e, again, "round trip of " + input);
    assertEquals(expected, again.unparse());
  }

  @Test
  void parseError_reportsLineColumnAndCaret() {
    ClassAdParseException e =
        assertThrows(
            ClassAdParseException.class, () -> ClassAds.parse("[\n  a = 1;\n  b = 2 +;\n]"));
    assertEquals(3, e.line());
    assertEquals(10, e.column());
    assertEquals(
        "line 3, column 10: unexpected ';', expected an expression\n  b = 2 +;\n         ^",
        e.getMessage());
  }

  @Test
  void oldSyntax_reportsEveryBadLine() {
    ClassAdParseException e =
        assertThrows(
            ClassAdParseException.class,
            () -> ClassAds.parseAll("a = 1\nb = (\nc = 3\nd = 4 4\n", ParseOptions.DEFAULT));
    assertEquals(2, e.problems().size());
    assertEquals(2, e.problems().get(0).line());
    assertEquals(4, e.problems().get(1).line());
    assertEquals(7, e.problems().get(1).column());
  }

  @Test
  void unterminatedString_isAParseError() {
    ClassAdParseException e =
        assertThrows(ClassAdParseException.class, () -> ClassAds.parseExpression("\"abc"));
    assertEquals("unterminated string", e.reason());
    assertEquals(1, e.column());
  }

  @Test
  void suffixes_areRejectedInStrictModeAndReadInPaperMode() throws Exception {
    assertThrows(ClassAdParseException.class, () -> ClassAds.parseExpression("5M/sec"));
    assertEquals(
        Value.of(5_000_000L),
        Evaluation.evaluate(ClassAds.parseExpression("5M/sec", ParseOptions.PAPER)));
    assertEquals(
        Value.of(2L << 30),
        Evaluation.evaluate(ClassAds.parseExpression("2Gi", ParseOptions.PAPER)));
    assertEquals(
        Value.of(6_000_000L),
        Evaluation.evaluate(ClassAds.parseExpression("6000K", ParseOptions.PAPER)));
    assertEquals(
        Value.of(1.5e9),
        Evaluation.evaluate(ClassAds.parseExpression("1.5G/s", ParseOptions.PAPER)));
    // a suffix letter that starts a name is not a suffix
    assertEquals(
        Value.UNDEFINED, Evaluation.evaluate(ClassAds.parseExpression("x", ParseOptions.PAPER)));
  }

  @Test
  void paperAds_parseAsPrinted() throws Exception {
    ClassAd ad =
        ClassAds.parse(
            "hostname = \"dpsslx04.lbl.gov\";\nvolume = \"/dev/sandbox\";\n"
                + "availableSpace = 50G;\nAvgRDBandwidth = 6M/sec;\nrequirement = true;\n",
            ParseOptions.PAPER);
    assertEquals(Value.of(50_000_000_000L), ad.evaluate("availableSpace"));
    assertEquals(Value.of(6_000_000L), ad.evaluate("avgrdbandwidth"));
    assertTrue(ad.contains("requirement"));
  }

  @Test
  void tooLongInput_isAParseErrorNotACrash() {
    ParseOptions small = ParseOptions.DEFAULT.withMaxLength(10);
    ClassAdParseException e =
        assertThrows(
            ClassAdParseException.class, () -> ClassAds.parseExpression("1 + 2 + 3 + 4", small));
    assertTrue(e.reason().contains("exceeds the limit of 10"), e.reason());
  }
}
