package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Hand-written cases for comparison, arithmetic edge cases, scoping and functions. */
class SemanticsTest {

  static String eval(String expr) throws ClassAdParseException {
    return Evaluation.evaluate(ClassAds.parseExpression(expr)).unparse();
  }

  static String evalIn(String ad, String attr) throws ClassAdParseException {
    return ClassAds.parse(ad).evaluate(attr).unparse();
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "\"abc\" == \"ABC\" => true",
        "\"abc\" =?= \"ABC\" => false",
        "\"abc\" is \"abc\" => true",
        "\"a\" < \"B\" => true",
        "1 == 1.0 => true",
        "1 =?= 1.0 => false",
        "true == 1 => true",
        "true =?= 1 => false",
        "true < 2 => true",
        "\"1\" == 1 => error",
        "{1} == {1} => error",
        "[a=1] == [a=1] => error",
        "undefined == undefined => undefined",
        "undefined =?= undefined => true",
        "error =?= error => true",
        "undefined =!= 1 => true",
        "absTime(5) < absTime(6) => true",
        "absTime(0) == 0 => error",
        "relTime(5) == 5 => error",
        "real(\"NaN\") == real(\"NaN\") => false"
      })
  void comparison_followsHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "9223372036854775807 + 1 => -9223372036854775808",
        "-9223372036854775808 / -1 => 9223372036854775807",
        "-9223372036854775808 % -1 => 0",
        "7 / -2 => -3",
        "-7 % 3 => -1",
        "5 / 0 => error",
        "5 % 0 => error",
        "5.0 / 0 => error",
        "-5.0 / 0 => real(\"-INF\")",
        "0.0 / 0 => real(\"NaN\")",
        "1e300 * 1e300 => error",
        "1.5 % 1 => error",
        "true + 1 => 2",
        "-true => error",
        "\"a\" + 1 => error",
        "1 << 64 => 1",
        "-8 >> 1 => -4",
        "-8 >>> 1 => 9223372036854775804",
        "3 | 1.0 => error",
        "~5 => -6",
        "5 / 2.0 => 2.500000000000000E+00",
        "absTime(10) - absTime(3) => relTime(\"07\")",
        "relTime(5) * 2 => relTime(\"10\")",
        "absTime(0) + 1 => error",
        "- -1 => 1"
      })
  void arithmetic_edgeCasesFollowHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }

  @ParameterizedTest(name = "{0}.{1} => {2}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "[x=1; a=[b=x]; r=a.b] => r => 1",
        "[x=1; a=[x=2; b=parent.x]; r=a.b] => r => 1",
        "[x=1; a=[x=2; b=toplevel.x]; r=a.b] => r => 1",
        "[x=1; a=[x=2; b=root.x]; r=a.b] => r => 1",
        "[x=1; a=[x=2; b=.x]; r=a.b] => r => 1",
        "[x=1; a=[x=2; b=self.x]; r=a.b] => r => 2",
        "[x=1; a=[b=2]; r=a.x] => r => 1",
        "[r=my.x; x=1] => r => undefined",
        "[r=other.x] => r => undefined",
        "[r=target.x] => r => undefined",
        "[A=1; r=a] => r => 1",
        "[a=b; b=a; r=a] => r => undefined",
        "[r=r+1] => r => undefined",
        "[r=isUndefined(r)] => r => false",
        "[a=isUndefined(b); b=a; r=a] => r => true",
        "['a b'=3; r='a b'] => r => 3",
        "[r={[a=1],[a=2],3}.a] => r => { 1,2,error }",
        "[r=[a=1][\"A\"]] => r => 1",
        "[r={1,2,3}[5]] => r => error"
      })
  void scoping_isStrictNewClassAd(String ad, String attr, String expected) throws Exception {
    assertEquals(expected, evalIn(ad, attr), ad);
  }

  @Test
  void referenceChain_deeperThanLimit_givesErrorNotStackOverflow() throws Exception {
    StringBuilder sb = new StringBuilder("[ a0 = 1; ");
    for (int i = 1; i < 5000; i++) {
      sb.append('a').append(i).append(" = a").append(i - 1).append(" + 1; ");
    }
    ClassAd ad = ClassAds.parse(sb.append("r = a4999 ]").toString());
    assertEquals(Value.ERROR, ad.evaluate("r"));
    assertEquals(Value.of(200L), ad.evaluate("a199"));
  }

  @Test
  void exponentialReferences_giveErrorInsteadOfRunningForHours() throws Exception {
    StringBuilder sb = new StringBuilder("[ a0 = 1; ");
    for (int i = 1; i <= 60; i++) {
      sb.append('a')
          .append(i)
          .append(" = a")
          .append(i - 1)
          .append(" + a")
          .append(i - 1)
          .append("; ");
    }
    ClassAd ad = ClassAds.parse(sb.append("r = a60 ]").toString());
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(30), () -> assertEquals(Value.ERROR, ad.evaluate("r")));
    assertEquals(Value.of(1024L), ad.evaluate("a10"));
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "strcat(\"a\", 1, 1.5, true) => \"a11.500000000000000E+00true\"",
        "strcat(\"a\", undefined) => undefined",
        "join(\",\", {1, undefined, \"x\"}) => \"1,x\"",
        "size({1,2,3}) => 3",
        "size(\"abc\") => 3",
        "sum({1, 2.5}) => 3.500000000000000E+00",
        "avg({}) => 0",
        "max({5, 1.5}) => 5.000000000000000E+00",
        "member(1, {2, 1}) => true",
        "member(\"A\", {\"a\"}) => true",
        "identicalMember(\"A\", {\"a\"}) => false",
        "anyCompare(\"<\", {5, 1}, 2) => true",
        "allCompare(\"<\", {5, 1}, 2) => false",
        "toUpper(\"abc\") => \"ABC\"",
        "substr(\"hello\", -3, -1) => \"ll\"",
        "strcmp(\"a\", \"b\") => -1",
        "stricmp(\"A\", \"a\") => 0",
        "regexp(\"^a.c$\", \"abc\") => true",
        "regexps(\"a(b)\", \"xaby\", \"[\\\\1]\") => \"[b]\"",
        "replaceAll(\"a\", \"banana\", \"o\") => \"bonono\"",
        "regexpMember(\"^b\", {\"a\", \"bc\"}) => true",
        "int(\"12abc\") => 12",
        "int(3.7) => 3",
        "real(\"1.5x\") => 1.500000000000000E+00",
        "string(1.0/3) => \"3.333333333333333E-01\"",
        "bool(\"TRUE\") => true",
        "floor(2.5) => 2",
        "ceiling(2.1) => 3",
        "round(2.5) => 2",
        "pow(2, 10) => 1024",
        "pow(2, -1) => 5.000000000000000E-01",
        "pow(true, real(\"INF\")) => 1.000000000000000E+00",
        "pow(-1.0, -real(\"INF\")) => 1.000000000000000E+00",
        "pow(1.0, real(\"NaN\")) => 1.000000000000000E+00",
        "quantize(7, 3) => 9",
        "quantize(7.5, {2, 10}) => 10",
        "interval(90061) => \"1+01:01:01\"",
        "ifThenElse(true, 1, 2) => 1",
        "ifThenElse(undefined, 1, 2) => undefined",
        "isUndefined(x) => true",
        "isList({}) => true",
        "eval(\"1 + 2\") => 3",
        "eval(\"1 +\") => error",
        "stringListMember(\"b\", \"a, b\") => true",
        "stringListsIntersect(\"a,b\", \"c, b\") => true",
        "versioncmp(\"a10\", \"a9\") => 1",
        "string(relTime(100000)) => \"1+03:46:40\"",
        "nosuchfunction(1) => error"
      })
  void functions_followHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }

  @Test
  void unparseFunction_showsTheAttributeExpression() throws Exception {
    assertEquals("\"1 + 2\"", evalIn("[a = 1+2; r = unparse(a)]", "r"));
  }

  @Test
  void time_usesTheInjectedClock() throws Exception {
    EvalOptions opts =
        EvalOptions.DEFAULT.withClock(
            java.time.InstantSource.fixed(java.time.Instant.ofEpochSecond(1234)));
    assertEquals(Value.of(1234L), Evaluation.evaluate(ClassAds.parseExpression("time()"), opts));
  }
}
