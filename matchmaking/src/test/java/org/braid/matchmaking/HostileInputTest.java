package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile inputs of issue 18, each a regression test: every one ends with a value or a one-line
 * error within a second of CPU time, never a hang, a stack trace or an OutOfMemoryError.
 *
 * <p>Time is the evaluating thread's CPU time: on a shared machine (load 11 on 2 cores while this
 * was written) wall time measures the neighbours. A hang is still caught by a wall-clock cut-off.
 */
class HostileInputTest {

  /** The longest an evaluation may run, in CPU time of its thread. */
  static final Duration CPU_LIMIT = Duration.ofSeconds(1);

  /** Wall-clock cut-off for a hang, generous for a busy machine. */
  static final Duration HANG = Duration.ofSeconds(20);

  static Evaluation.Printed print(String expr) throws ClassAdParseException {
    return print(expr, EvalOptions.DEFAULT);
  }

  static Evaluation.Printed print(String expr, EvalOptions o) throws ClassAdParseException {
    Expr e = ClassAds.parseExpression(expr);
    return withinCpuLimit(() -> Evaluation.print(e, o), expr);
  }

  /** Runs {@code work} on a thread of its own and checks its CPU time against the limit. */
  static <T> T withinCpuLimit(ThrowingSupplier<T> work, String what) {
    return assertTimeoutPreemptively(
        HANG,
        () -> {
          ThreadMXBean mx = ManagementFactory.getThreadMXBean();
          long start = mx.getCurrentThreadCpuTime();
          T result = work.get();
          Duration used = Duration.ofNanos(mx.getCurrentThreadCpuTime() - start);
          assertTrue(
              used.compareTo(CPU_LIMIT) < 0,
              "took " + used.toMillis() + " ms of CPU time: " + abbreviate(what));
          return result;
        });
  }

  static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "... (" + s.length() + " characters)";
  }

  /** Evaluates {@code expr}: error, with {@code limit} named as the limit reached. */
  static void assertErrorAt(String expr, String limit) throws ClassAdParseException {
    Evaluation.Printed p = print(expr);
    assertEquals("error", p.text());
    assertEquals(Optional.of(limit), p.limitReached());
  }

  /** A chain a0 = base, a(i) = link(a(i-1)), r = a(n); LINK is the previous name. */
  static String chain(String link, int n, String base) {
    StringBuilder sb = new StringBuilder("[ a0 = " + base + "; ");
    for (int i = 1; i <= n; i++) {
      sb.append('a').append(i).append(" = ").append(link.replace("P", "a" + (i - 1)));
      sb.append("; ");
    }
    return sb.append("r = a").append(n).append(" ].r").toString();
  }

  @Test
  void regexp_nestedQuantifiersOnLongText_answersInLinearTime() throws Exception {
    // java.util.regex took hours here; RE2/J reads each character once per program instruction
    Evaluation.Printed p = print("regexp(\"((a+)+)+$\", \"" + "a".repeat(30_000) + "b\")");
    assertEquals("false", p.text());
    assertEquals(Optional.empty(), p.limitReached());
  }

  @Test
  void regexp_textTooLongForTheStepBudget_givesErrorNamingTheLimit() throws Exception {
    assertErrorAt(
        "regexp(\"((a+)+)+$\", \"" + "a".repeat(1_000_000) + "b\")",
        "evaluation took more than 500000 steps");
  }

  @Test
  void regexp_nestedCountedRepetition_givesErrorWithoutCompiling() throws Exception {
    Evaluation.Printed p = print("regexp(\"((a{1000}){1000}){1000}\", \"a\")");
    assertEquals("error", p.text());
    assertEquals(
        Optional.of("regular expression larger than 100000 instructions"), p.limitReached());
  }

  @Test
  void replaceAll_emptyMatchAtTheEnd_givesErrorAsHtcondorDoes() throws Exception {
    // used to end the run with StringIndexOutOfBoundsException; HTCondor 25.14.1 gives error
    assertEquals("error", print("replaceAll(\"x*\", \"abc\", \"y\")").text());
    assertEquals("\"yabc\"", print("replace(\"x*\", \"abc\", \"y\")").text());
    assertEquals("\"yabc\"", print("replaceAll(\"^\", \"abc\", \"y\")").text());
  }

  @Test
  void replaceAll_resultPastTheStringLimit_givesErrorNotOutOfMemory() throws Exception {
    assertErrorAt(
        "replaceAll(\".\", \"" + "a".repeat(100_000) + "\", \"" + "b".repeat(1000) + "\")",
        "string longer than 1048576 characters");
  }

  @Test
  void replaceAll_manyGroupReferences_stopsAtTheStringLimit() throws Exception {
    String text = "ab".repeat(200_000);
    Evaluation.Printed p =
        print("size(replaceAll(\"(a)(b)\", \"" + text + "\", \"" + "\\\\1".repeat(100) + "\"))");
    assertEquals("error", p.text());
    assertTrue(p.limitReached().isPresent());
  }

  @Test
  void strcat_doublingChain_givesErrorNotOutOfMemory() throws Exception {
    assertErrorAt(
        chain("strcat(P, P)", 40, "\"" + "x".repeat(10_000) + "\""),
        "string longer than 1048576 characters");
  }

  @Test
  void join_doublingChain_givesErrorNotOutOfMemory() throws Exception {
    Evaluation.Printed p = print(chain("join(\",\", P, P)", 40, "\"xxxxxxxxxx\""));
    assertEquals("error", p.text());
    // the doubling costs about as many steps as the budget holds: either limit may come first
    assertTrue(p.limitReached().isPresent());
  }

  @Test
  void string_ofListPastTheStringLimit_givesError() throws Exception {
    // string() of a list writes its elements unevaluated; a projection holds the values
    String s = "\"" + "x".repeat(400_000) + "\"";
    assertErrorAt(
        "[ s = " + s + "; r = size(string({ [a = s], [a = s], [a = s] }.a)) ].r",
        "string longer than 1048576 characters");
  }

  @Test
  void comparingLongStringsOverAndOver_givesErrorAtTheStepBudget() throws Exception {
    // each string value read costs a step per 64 characters, so repeated reads stay bounded
    assertErrorAt(
        chain("strcmp(P, P) == 0 ? P : P", 30, "\"" + "x".repeat(60_000) + "\""),
        "evaluation took more than 500000 steps");
  }

  @Test
  void print_listHoldingItself_givesErrorNotStackOverflow() throws Exception {
    // printing used to recurse once per level and overflowed the stack with a 1,000-line trace
    Evaluation.Printed p = print("[ r = { r } ].r");
    assertEquals("error", p.text());
    assertEquals(Value.ERROR, p.value());
    assertEquals(Optional.of("printed value contains itself"), p.limitReached());
  }

  @Test
  void print_listHoldingItselfThroughAProjection_stopsAtOnceNotAtTheStepBudget() throws Exception {
    // HostileFuzzTest's slowest case (0.4-1 s of CPU): the list was printed ever deeper, each
    // level evaluating x.a again, until 500,000 steps were spent; now 20,000 are plenty
    String line = "[ x = { x.a, x }; r = x ].r";
    for (EvalOptions o : List.of(EvalOptions.DEFAULT, EvalOptions.DEFAULT.withMaxSteps(20_000))) {
      Evaluation.Printed p = print(line, o);
      assertEquals("error", p.text());
      assertEquals(Optional.of("printed value contains itself"), p.limitReached());
    }
    // the same list twice side by side, or a list of equal lists, is no cycle
    assertEquals("{ { 1 }, { 1 } }", print("[ x = { 1 }; r = { x, x } ].r").text());
    assertEquals("{ { { 1 } }, { 1 } }", print("[ x = { 1 }; y = { x }; r = { y, x } ].r").text());
  }

  @Test
  void print_exponentialListExpansion_givesErrorAtALimit() throws Exception {
    Evaluation.Printed p = print(chain("{P,P,P,P,P,P,P,P,P,P}", 12, "1"));
    assertEquals("error", p.text());
    assertTrue(p.limitReached().isPresent());
  }

  @Test
  void print_ordinaryValues_writeTheirElementsEvaluated() throws Exception {
    assertEquals("{ 1, 2, { \"a\", 3 } }", print("{ 1, 1 + 1, { \"a\", 1 + 2 } }").text());
    assertEquals("{ }", print("{ }").text());
    assertEquals("[ a = 1 + 1 ]", print("[ a = 1 + 1 ]").text());
    assertEquals("{ 7, 8 }", print("[ x = 7; l = { x, x + 1 } ].l").text());
    assertEquals(Optional.empty(), print("{ 1, 2 }").limitReached());
  }

  @Test
  void referenceDoublingChain_givesErrorAtTheStepBudget() throws Exception {
    assertErrorAt(chain("P + P", 40, "1"), "evaluation took more than 500000 steps");
  }

  @Test
  void stepBudget_boundsAWholeListProjection() throws Exception {
    // ten ads, each a of about 120 steps: each alone fits 1000 steps, all ten do not
    StringBuilder sb = new StringBuilder("{ ");
    for (int i = 0; i < 10; i++) {
      sb.append(i > 0 ? ", " : "").append("[ a = ").append("1 + ".repeat(60)).append("1 ]");
    }
    String list = sb.append(" }").toString();
    EvalOptions o = EvalOptions.DEFAULT.withMaxSteps(1000);
    assertEquals("61", print(list + "[0].a", o).text());
    Evaluation.Printed all = print(list + ".a", o);
    assertEquals("error", all.text());
    assertEquals(Optional.of("evaluation took more than 1000 steps"), all.limitReached());
    assertEquals(10, print(list + ".a", o.withMaxSteps(5000)).text().split(",").length);
  }

  @Test
  void stepBudget_boundsAdSubscriptsAndListFunctions() throws Exception {
    String costly = "1 + ".repeat(60) + "1";
    EvalOptions o = EvalOptions.DEFAULT.withMaxSteps(1000);
    String ad = "[ x = " + costly + "; y = " + "self[\"x\"] + ".repeat(10) + "0 ].y";
    assertEquals("error", print(ad, o).text());
    assertEquals("610", print(ad, o.withMaxSteps(5000)).text());
    String sum = "sum({ " + (costly + ", ").repeat(9) + costly + " })";
    assertEquals("error", print(sum, o).text());
    assertEquals("610", print(sum, o.withMaxSteps(5000)).text());
  }

  @Test
  void eval_deepStringInsideDeepEvaluation_parsesNoDeeperThanTheNestingLeft() throws Exception {
    // 900 nested calls, then a string of 400 nested calls to eval(): together past maxNesting
    String inner = "int(".repeat(400) + "1" + ")".repeat(400);
    String e = "int(".repeat(450) + "eval(\"" + inner + "\")" + ")".repeat(450);
    assertEquals("error", print(e).text());
    assertEquals("1", print(e, EvalOptions.DEFAULT.withMaxNesting(2000)).text());
  }

  @Test
  void unparse_treeDeeperThanAnyParse_writesWithoutRecursion() {
    Expr e = new Expr.Literal(Value.of(1L));
    for (int i = 0; i < 200_000; i++) {
      e = new Expr.Unary(Expr.UnaryOp.MINUS, new Expr.Paren(e));
    }
    String text = e.unparse();
    assertEquals(200_000 * 4 + 1, text.length());
    assertTrue(text.startsWith(" -( -("));
  }

  @Test
  void lineReader_lineFarLongerThanTheLimit_isCutWhileItStreams() throws IOException {
    long length = 256L << 20; // 256 MiB, never held: the reader keeps 1 MiB + 1
    Reader huge = new GeneratedLine(length, "\n1 + 1\n");
    try (BoundedLineReader in = new BoundedLineReader(huge, 1 << 20)) {
      String first = assertTimeoutPreemptively(HANG, in::readLine);
      assertEquals((1 << 20) + 1, first.length());
      assertTrue(in.lastLineTooLong());
      ClassAdParseException e =
          assertThrows(ClassAdParseException.class, () -> ClassAds.parseExpression(first));
      assertEquals("line 1, column 1: input exceeds the limit of 1048576 characters", e.oneLine());
      assertEquals("1 + 1", in.readLine());
      assertFalse(in.lastLineTooLong());
      assertEquals(null, in.readLine());
    }
  }

  @Test
  void lineReader_lineEnds_asBufferedReaderReadsThem() throws IOException {
    try (BoundedLineReader in = new BoundedLineReader(new StringReader("a\r\nb\rc\n\nd"), 3)) {
      assertEquals("a", in.readLine());
      assertEquals("b", in.readLine());
      assertEquals("c", in.readLine());
      assertEquals("", in.readLine());
      assertEquals("d", in.readLine());
      assertEquals(null, in.readLine());
    }
    try (BoundedLineReader in = new BoundedLineReader(new StringReader("abc\nabcd\n"), 3)) {
      assertEquals("abc", in.readLine());
      assertFalse(in.lastLineTooLong());
      assertEquals("abcd", in.readLine());
      assertTrue(in.lastLineTooLong());
    }
  }

  @Test
  void readText_fileLongerThanTheLimit_readsJustPastTheLimit(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("big.ads");
    Files.writeString(file, "a = 1\n" + "#".repeat(3 << 20) + "\n", StandardCharsets.UTF_8);
    String text = ClassAds.readText(file, ParseOptions.DEFAULT);
    assertEquals((1 << 20) + 1, text.length());
    ClassAdParseException e =
        assertThrows(
            ClassAdParseException.class, () -> ClassAds.parseAll(text, ParseOptions.DEFAULT));
    assertEquals("input exceeds the limit of 1048576 characters", e.reason());
    Path small = dir.resolve("small.ads");
    Files.writeString(small, "a = 1\n\nb = 2\n", StandardCharsets.UTF_8);
    assertEquals(
        2,
        ClassAds.parseAll(ClassAds.readText(small, ParseOptions.DEFAULT), ParseOptions.DEFAULT)
            .size());
  }

  @Test
  void stringListsIntersect_longLists_costTheirLengthsNotTheirProduct() throws Exception {
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 30_000; i++) {
      a.append('a').append(i).append(',');
      b.append('b').append(i).append(',');
    }
    String e = "stringListsIntersect(\"" + a + "\", \"" + b + "\")";
    assertEquals("false", print(e).text());
  }

  /** One line of {@code length} characters, then {@code rest}, produced as it is read. */
  static final class GeneratedLine extends Reader {
    private long left;
    private final String rest;
    private int restAt;

    GeneratedLine(long length, String rest) {
      this.left = length;
      this.rest = rest;
    }

    @Override
    public int read(char[] cbuf, int off, int len) {
      if (left > 0) {
        int n = (int) Math.min(len, left);
        Arrays.fill(cbuf, off, off + n, 'x');
        left -= n;
        return n;
      }
      if (restAt == rest.length()) {
        return -1;
      }
      int n = Math.min(len, rest.length() - restAt);
      rest.getChars(restAt, restAt + n, cbuf, off);
      restAt += n;
      return n;
    }

    @Override
    public void close() {}
  }
}
