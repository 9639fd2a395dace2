package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recursion is bounded by explicit limits, not by catching stack overflow: at the default limits
 * parsing and evaluation of the deepest shapes fit in a thread stack of 768 KiB (evaluation moves
 * to fresh helper stacks every {@link DeepStack#LEVELS} levels), leaving a quarter of the JVM's
 * default 1 MiB to whoever calls. Each case runs warm first (compiled frames are larger than
 * interpreted ones), then on a thread with the small stack.
 */
class StackDepthTest {

  static final long STACK = 768 * 1024;

  /** Runs {@code work} on a thread with {@link #STACK} bytes of stack; what it threw, or null. */
  static Throwable onSmallStack(Runnable work) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(null, work, "small-stack", STACK);
    t.setUncaughtExceptionHandler((th, e) -> thrown.set(e));
    t.start();
    t.join();
    return thrown.get();
  }

  static void warmThenCheck(Runnable work) throws InterruptedException {
    for (int i = 0; i < 20; i++) {
      Thread t = new Thread(null, work, "warm-up", 16L << 20);
      t.start();
      t.join();
    }
    assertNull(onSmallStack(work));
  }

  /** The deepest text the default parser accepts for {@code shape}. */
  static String deepest(IntFunction<String> shape) {
    int lo = 1;
    int hi = 5000;
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      try {
        ClassAds.parseExpression(shape.apply(mid));
        lo = mid;
      } catch (ClassAdParseException e) {
        hi = mid - 1;
      }
    }
    return shape.apply(lo);
  }

  static IntFunction<String> shape(String open) {
    switch (open) {
      case "int(":
        return n -> "int(".repeat(n) + "1" + ")".repeat(n);
      case "f(1+":
        return n -> "f(1+".repeat(n) + "1" + ")".repeat(n);
      case "[a=":
        return n -> "[a=".repeat(n) + "1" + "]".repeat(n);
      case "{":
        return n -> "{ ".repeat(n) + "1" + " }".repeat(n);
      case "ifThenElse(":
        return n -> "ifThenElse(true,".repeat(n) + "1" + ",1)".repeat(n);
      case "a?":
        return n -> "a?".repeat(n) + "1" + ":1".repeat(n);
      default:
        return n -> open.repeat(n) + "1" + ")".repeat(n);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"int(", "f(1+", "[a=", "{", "ifThenElse(", "a?", "(", "-("})
  void parseAndEvaluate_deepestAcceptedText_fitInTheStack(String open) throws Exception {
    String text = deepest(shape(open));
    warmThenCheck(
        () -> {
          try {
            Evaluation.print(ClassAds.parseExpression(text), EvalOptions.DEFAULT);
          } catch (ClassAdParseException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** Fifty links of 150 nested calls each: evaluation nests until maxNesting stops it. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {"int(", "strcat(", "ifThenElse(true,", "member(1, {", "join(", "toUpper("})
  void evaluate_callChainsToTheNestingLimit_fitInTheStack(String link) throws Exception {
    String close = link.endsWith(",") ? ",1)" : link.endsWith("{") ? "})" : ")";
    StringBuilder sb = new StringBuilder("[ ");
    for (int i = 0; i < 50; i++) {
      sb.append('a').append(i).append(" = ").append(link.repeat(150)).append('a').append(i + 1);
      sb.append(close.repeat(150)).append("; ");
    }
    ClassAd ad = ClassAds.parse(sb.append("a50 = 1 ]").toString());
    assertEquals(Value.ERROR, Evaluation.attribute(ad, "a0", EvalOptions.DEFAULT));
    warmThenCheck(() -> Evaluation.attribute(ad, "a0", EvalOptions.DEFAULT));
  }

  /** eval() parses its string on top of the evaluation that calls it; both stay bounded. */
  @ParameterizedTest(name = "eval() after {0} links")
  @ValueSource(ints = {1, 3, 6})
  void evalFunction_deepStringOnADeepEvaluation_fitsInTheStack(int links) throws Exception {
    StringBuilder sb = new StringBuilder("[ s = \"" + shape("int(").apply(499) + "\"; ");
    for (int i = 0; i < links; i++) {
      sb.append('a').append(i).append(" = ").append("int(".repeat(150)).append('a').append(i + 1);
      sb.append(")".repeat(150)).append("; ");
    }
    ClassAd ad = ClassAds.parse(sb.append('a').append(links).append(" = eval(s) ]").toString());
    warmThenCheck(() -> Evaluation.attribute(ad, "a0", EvalOptions.DEFAULT));
  }

  /** RE2/J's matcher recurses once per instruction on an empty-width path: large ones move. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"(a?){1000}", "(?:a?b?c?d?e?){1000}", "(a*)*(b*)*(c?){900}x"})
  void regexp_largeProgramsWithLongEmptyPaths_fitInTheStack(String pattern) throws Exception {
    String e = "replaceAll(\"" + pattern + "\", \"" + "abcde".repeat(20) + "\", \"-\")";
    Expr expr = ClassAds.parseExpression(e);
    warmThenCheck(() -> Evaluation.evaluate(expr));
  }

  @ParameterizedTest(name = "groups nested {0} deep")
  @ValueSource(ints = {250, 251, 5000})
  void regexp_deeplyNestedGroups_compileOnlyWithinPcresLimit(int depth) throws Exception {
    String e = "regexp(\"" + "(".repeat(depth) + "a" + ")".repeat(depth) + "\", \"a\")";
    Expr expr = ClassAds.parseExpression(e);
    warmThenCheck(() -> Evaluation.evaluate(expr));
    assertEquals(depth <= 250 ? Value.TRUE : Value.ERROR, Evaluation.evaluate(expr));
  }
}
