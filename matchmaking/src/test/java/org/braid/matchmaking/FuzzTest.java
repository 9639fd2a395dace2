package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Assertions;

/**
 * Bad input of any shape gives a parse error or a value: never another exception, a stack overflow
 * or a hang.
 */
class FuzzTest {

  @Provide
  Arbitrary<String> junk() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(200),
        Arbitraries.strings()
            .withChars("[]{}()=;,.\"'\\?:!~-+*/%<>&|^ aAxX019eE.\n")
            .ofMaxLength(300));
  }

  @Property(tries = 3000)
  void anyText_parsesOrFailsWithParseException(@ForAll("junk") String text) {
    Assertions.assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          for (ParseOptions o : new ParseOptions[] {ParseOptions.DEFAULT, ParseOptions.PAPER}) {
            try {
              Expr e = ClassAds.parseExpression(text, o);
              assertNotNull(Evaluation.evaluate(e));
              assertNotNull(ClassAds.parseExpression(e.unparse(), ParseOptions.DEFAULT));
            } catch (ClassAdParseException expected) {
              assertTrue(expected.line() >= 1 && expected.column() >= 1);
            }
            try {
              for (ClassAd ad : ClassAds.parseAll(text, o)) {
                for (String n : ad.names()) {
                  assertNotNull(ad.evaluate(n));
                }
              }
            } catch (ClassAdParseException expected) {
              assertTrue(expected.line() >= 1);
            }
          }
        });
  }

  @Property(tries = 30)
  void deepNesting_givesParseErrorNotStackOverflow(
      @ForAll @IntRange(min = 1100, max = 200_000) int depth, @ForAll("openers") String open) {
    String text = open.repeat(depth) + "1";
    Assertions.assertThrows(ClassAdParseException.class, () -> ClassAds.parseExpression(text));
  }

  @Provide
  Arbitrary<String> openers() {
    return Arbitraries.of("(", "-", "!", "{", "[a=", "f(", "a[", "1+", "a?", "x?:", "~");
  }

  @Property(tries = 2000)
  void generatedExpressions_evaluateWithoutThrowing(@ForAll long seed) throws Exception {
    String c = new ExprGenerator(seed).nextCase();
    assertNotNull(Canonical.of(c));
  }
}
