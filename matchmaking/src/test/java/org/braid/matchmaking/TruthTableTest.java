package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every row of the three-valued truth tables of {@code &&}, {@code ||}, {@code !} and {@code ?:},
 * over true, false, undefined, error and the non-boolean operands 0, 1 and "s". Expected values are
 * HTCondor 25's (checked once against the oracle; the differential test keeps them honest).
 */
class TruthTableTest {

  static String eval(String expr) throws ClassAdParseException {
    return Evaluation.evaluate(ClassAds.parseExpression(expr)).unparse();
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "true && true => true",
        "true && false => false",
        "true && undefined => undefined",
        "true && error => error",
        "true && 0 => false",
        "true && 1 => true",
        "true && \"s\" => error",
        "false && true => false",
        "false && false => false",
        "false && undefined => false",
        "false && error => false",
        "false && 0 => false",
        "false && 1 => false",
        "false && \"s\" => false",
        "undefined && true => undefined",
        "undefined && false => false",
        "undefined && undefined => undefined",
        "undefined && error => error",
        "undefined && 0 => false",
        "undefined && 1 => undefined",
        "undefined && \"s\" => error",
        "error && true => error",
        "error && false => error",
        "error && undefined => error",
        "error && error => error",
        "error && 0 => error",
        "error && 1 => error",
        "error && \"s\" => error",
        "0 && true => false",
        "0 && false => false",
        "0 && undefined => false",
        "0 && error => false",
        "0 && 0 => false",
        "0 && 1 => false",
        "0 && \"s\" => false",
        "1 && true => true",
        "1 && false => false",
        "1 && undefined => undefined",
        "1 && error => error",
        "1 && 0 => false",
        "1 && 1 => true",
        "1 && \"s\" => error",
        "\"s\" && true => error",
        "\"s\" && false => error",
        "\"s\" && undefined => error",
        "\"s\" && error => error",
        "\"s\" && 0 => error",
        "\"s\" && 1 => error",
        "\"s\" && \"s\" => error"
      })
  void and_matchesHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "true || true => true",
        "true || false => true",
        "true || undefined => true",
        "true || error => true",
        "true || 0 => true",
        "true || 1 => true",
        "true || \"s\" => true",
        "false || true => true",
        "false || false => false",
        "false || undefined => undefined",
        "false || error => error",
        "false || 0 => false",
        "false || 1 => true",
        "false || \"s\" => error",
        "undefined || true => true",
        "undefined || false => undefined",
        "undefined || undefined => undefined",
        "undefined || error => error",
        "undefined || 0 => undefined",
        "undefined || 1 => true",
        "undefined || \"s\" => error",
        "error || true => error",
        "error || false => error",
        "error || undefined => error",
        "error || error => error",
        "error || 0 => error",
        "error || 1 => error",
        "error || \"s\" => error",
        "0 || true => true",
        "0 || false => false",
        "0 || undefined => undefined",
        "0 || error => error",
        "0 || 0 => false",
        "0 || 1 => true",
        "0 || \"s\" => error",
        "1 || true => true",
        "1 || false => true",
        "1 || undefined => true",
        "1 || error => true",
        "1 || 0 => true",
        "1 || 1 => true",
        "1 || \"s\" => true",
        "\"s\" || true => error",
        "\"s\" || false => error",
        "\"s\" || undefined => error",
        "\"s\" || error => error",
        "\"s\" || 0 => error",
        "\"s\" || 1 => error",
        "\"s\" || \"s\" => error"
      })
  void or_matchesHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }

  @ParameterizedTest(name = "{0} => {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        "!true => false",
        "!false => true",
        "!undefined => undefined",
        "!error => error",
        "!0 => true",
        "!1 => false",
        "!\"s\" => error",
        "true ? 1 : 2 => 1",
        "false ? 1 : 2 => 2",
        "undefined ? 1 : 2 => undefined",
        "error ? 1 : 2 => error",
        "0 ? 1 : 2 => 2",
        "1 ? 1 : 2 => 1",
        "\"s\" ? 1 : 2 => error",
        "undefined ?: 2 => 2",
        "error ?: 2 => error",
        "false ?: 2 => false"
      })
  void notAndConditional_matchHtcondor(String expr, String expected) throws Exception {
    assertEquals(expected, eval(expr), expr);
  }
}
