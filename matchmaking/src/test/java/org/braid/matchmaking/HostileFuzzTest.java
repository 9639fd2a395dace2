package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * Hostile lines, generated, through the path {@code braid classad eval} takes (bounded line reader,
 * parser, {@link Evaluation#print}) and through ads: nested quantifiers against long texts,
 * substitutions and concatenations that double, self-referential lists, deep nesting, long strings,
 * junk. None may end in anything but a value or a one-line parse error, none may take a second of
 * CPU time, none may run out of memory. Fixed seed and a fixed number of tries, so the run is
 * bounded and repeatable; replay another seed with {@code -Djqwik.seeds.whenfixed=ALLOW_RANDOM} and
 * a {@code seed} of your own in the annotation.
 *
 * <p>Time is the CPU time of the whole process while the case runs (all threads: deep evaluations
 * continue on helper threads), an upper bound of the case's own, measured after a warm-up pass so
 * that the JIT's first compilations do not count. A wall-clock cut-off of 20 s catches a hang even
 * on a machine as loaded as the one this was written on (load 16 on 2 cores).
 */
class HostileFuzzTest {

  static final Duration CPU_LIMIT = Duration.ofSeconds(1);
  static final Duration HANG = Duration.ofSeconds(20);

  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** The most CPU time one timed case took, and which; reported after the run. */
  private static long slowestNanos;

  private static String slowest = "";

  /** The named hostile inputs of issue 18, run once untimed so that the JIT has seen them. */
  static final List<String> CORPUS =
      List.of(
          "regexp(\"((a+)+)+$\", \"" + "a".repeat(30_000) + "b\")",
          "replaceAll(\"x*\", \"abc\", \"y\")",
          "replaceAll(\".\", \"" + "a".repeat(50_000) + "\", \"" + "b".repeat(100) + "\")",
          "[ r = { r } ].r",
          HostileInputTest.chain("strcat(P, P)", 40, "\"xxxxxxxxxx\""),
          HostileInputTest.chain("P + P", 40, "1"),
          HostileInputTest.chain("{P,P,P,P,P,P,P,P,P,P}", 12, "1"),
          "int(".repeat(499) + "1" + ")".repeat(499));

  /**
   * Runs the corpus and a sample of every kind of generated line once, untimed, so that the JIT has
   * compiled their paths (helper stacks included) before anything is timed.
   */
  @BeforeContainer
  static void warmUp() throws IOException {
    HostileFuzzTest generators = new HostileFuzzTest();
    List<Arbitrary<String>> kinds =
        List.of(
            regexCalls(),
            doublingChains(),
            selfReferences(),
            nesting(),
            longStrings(),
            generators.hostileAds());
    for (int i = 0; i < 2; i++) {
      for (String line : CORPUS) {
        evaluateLine(line);
      }
      for (Arbitrary<String> kind : kinds) {
        for (String line : kind.sampleStream().limit(15).toList()) {
          evaluateLine(line);
          evaluateAd(line);
        }
      }
    }
  }

  /** The slowest case, for the record (target/surefire-reports/...HostileFuzzTest-output.txt). */
  @AfterContainer
  static void reportSlowest() {
    System.out.println(
        "slowest case: " + slowestNanos / 1_000_000 + " ms of process CPU time: " + slowest);
  }

  @Property(tries = 400, seed = "1818")
  void hostileLine_givesAValueOrOneLineErrorWithinASecond(@ForAll("hostileLines") String line) {
    withinCpuLimit(() -> evaluateLine(line), line);
  }

  @Property(tries = 150, seed = "1414")
  void hostileAd_everyAttributeEvaluatesWithinASecond(@ForAll("hostileAds") String text) {
    withinCpuLimit(() -> evaluateAd(text), text);
  }

  /** What {@code braid classad eval} does with one line; the printed text, or the parse error. */
  static String evaluateLine(String line) throws IOException {
    try (BoundedLineReader in = new BoundedLineReader(new StringReader(line + "\n"), 1 << 20)) {
      String read = in.readLine();
      for (ParseOptions o : new ParseOptions[] {ParseOptions.DEFAULT, ParseOptions.PAPER}) {
        try {
          Expr e = ClassAds.parseExpression(read, o);
          Evaluation.Printed p = Evaluation.print(e, EvalOptions.DEFAULT);
          assertNotNull(p.text());
          p.limitReached().ifPresent(why -> assertFalse(why.contains("\n"), why));
          assertNotNull(e.unparse());
        } catch (ClassAdParseException ex) {
          assertFalse(ex.oneLine().contains("\n"), ex.oneLine());
        }
      }
      return read;
    }
  }

  static String evaluateAd(String text) {
    try {
      for (ClassAd ad : ClassAds.parseAll(text, ParseOptions.DEFAULT)) {
        for (String name : ad.names()) {
          assertNotNull(Evaluation.attribute(ad, name, EvalOptions.DEFAULT));
        }
        MatchClassAd m = MatchClassAd.of(ad, ad);
        assertNotNull(m.rightMatchesLeft());
        assertNotNull(ClassAdJson.toJson(ad, false));
      }
    } catch (ClassAdParseException ex) {
      assertFalse(ex.oneLine().contains("\n"), ex.oneLine());
    }
    return text;
  }

  /**
   * Runs {@code work} within the CPU limit. Process CPU time also counts the JIT compiler and the
   * garbage collector, which can push a first run past the limit on a loaded machine: a case over
   * the limit is run once more, and it fails only if the second run is over the limit too (a real
   * hang or blow-up is over it every time).
   */
  static void withinCpuLimit(ThrowingSupplier<?> work, String what) {
    assertTimeoutPreemptively(
        HANG,
        () -> {
          Duration used = cpuTime(work);
          if (used.compareTo(CPU_LIMIT) >= 0) {
            used = cpuTime(work);
          }
          if (used.toNanos() > slowestNanos) {
            slowestNanos = used.toNanos();
            slowest = HostileInputTest.abbreviate(what);
          }
          assertTrue(
              used.compareTo(CPU_LIMIT) < 0,
              "took " + used.toMillis() + " ms of CPU time: " + HostileInputTest.abbreviate(what));
        });
  }

  private static Duration cpuTime(ThrowingSupplier<?> work) throws Throwable {
    long start = OS.getProcessCpuTime();
    work.get();
    return Duration.ofNanos(OS.getProcessCpuTime() - start);
  }

  @Provide
  Arbitrary<String> hostileLines() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, regexCalls()),
        Tuple.of(3, doublingChains()),
        Tuple.of(2, selfReferences()),
        Tuple.of(2, nesting()),
        Tuple.of(1, longStrings()),
        Tuple.of(1, junk()));
  }

  @Provide
  Arbitrary<String> hostileAds() {
    Arbitrary<String> attr =
        Arbitraries.oneOf(regexCalls(), doublingLink(), selfReferences(), nesting(), longStrings());
    return attr.list()
        .ofMinSize(1)
        .ofMaxSize(6)
        .map(
            values -> {
              StringBuilder sb = new StringBuilder("[ ");
              for (int i = 0; i < values.size(); i++) {
                sb.append(i == values.size() - 1 ? "r" : "a" + i).append(" = ");
                sb.append(values.get(i).replace("P", "a" + Math.max(0, i - 1))).append("; ");
              }
              return sb.append("Requirements = r =!= error ]").toString();
            });
  }

  /** Regular expressions: nested groups and quantifiers, alternations, classes, counted repeats. */
  static Arbitrary<String> patterns() {
    Arbitrary<String> atom =
        Arbitraries.of("a", "b", ".", "[ab]", "\\\\w", "x", "(a|aa)", "a{2,9}", "", "^", "$");
    Arbitrary<String> quant = Arbitraries.of("", "*", "+", "?", "{1,1000}", "{3}", "*?");
    return Combinators.combine(atom.list().ofMinSize(1).ofMaxSize(4), quant, quant, quant)
        .as(
            (atoms, q1, q2, q3) -> {
              String inner = "(" + String.join("", atoms) + q1 + ")" + q2;
              return "(" + inner + "|" + inner + ")" + q3 + (q3.isEmpty() ? "" : "$");
            });
  }

  static Arbitrary<String> texts() {
    return Combinators.combine(
            Arbitraries.of("a", "ab", "aab", "x", " "),
            Arbitraries.integers().between(0, 60_000),
            Arbitraries.of("", "b", "!", "\\n"))
        .as((unit, n, tail) -> "\"" + unit.repeat(n / unit.length()) + tail + "\"");
  }

  static Arbitrary<String> regexCalls() {
    Arbitrary<String> opts = Arbitraries.of("", ", \"i\"", ", \"x\"", ", \"m\"", ", \"s\"");
    Arbitrary<String> subOpts = Arbitraries.of("", ", \"g\"", ", \"f\"", ", \"gf\"", ", \"i\"");
    Arbitrary<String> replacement =
        Arbitraries.of(
            "\"\"", "\"y\"", "\"\\\\1\\\\1\\\\1\"", "\"\\\\2\"", "\"" + "z".repeat(500) + "\"");
    return Combinators.combine(
            Arbitraries.of("regexp", "replaceAll", "replace", "regexps", "regexpMember"),
            patterns(),
            texts(),
            replacement,
            opts,
            subOpts)
        .as(
            (f, p, t, r, o, so) -> {
              String pat = "\"" + p + "\"";
              switch (f) {
                case "regexp":
                  return "regexp(" + pat + ", " + t + o + ")";
                case "regexpMember":
                  return "regexpMember(" + pat + ", { " + t + ", " + t + " }" + o + ")";
                default:
                  return f + "(" + pat + ", " + t + ", " + r + so + ")";
              }
            });
  }

  /** One link of a chain: P is the previous attribute. */
  static Arbitrary<String> doublingLink() {
    return Arbitraries.of(
        "strcat(P, P)",
        "join(\",\", P, P)",
        "P + P",
        "{P,P,P,P,P,P,P,P}",
        "replaceAll(\"a\", P, \"aa\")",
        "replaceAll(\"(.)\", P, \"\\\\1\\\\1\")",
        "regexp(\"(a|aa)+$\", P) ? P : P",
        "size(P) > 0 ? strcat(P, P) : P",
        "toUpper(strcat(P, P, P))",
        "string({P, P, P})",
        "unparse(P)",
        "member(P, {P, P})",
        "strcmp(P, P) == 0 ? P : P");
  }

  static Arbitrary<String> doublingChains() {
    return Combinators.combine(
            doublingLink(),
            Arbitraries.integers().between(1, 45),
            Arbitraries.of(
                "1", "\"a\"", "\"xxxxxxxxxx\"", "{ 1, 2 }", "\"" + "a".repeat(5000) + "\""))
        .as((link, n, base) -> HostileInputTest.chain(link, n, base));
  }

  static Arbitrary<String> selfReferences() {
    return Arbitraries.of(
        "[ r = { r } ].r",
        "[ r = { r, r, r } ].r",
        "[ r = { { r } } ].r[0]",
        "[ r = { [ a = r ] }.a ].r",
        "[ r = { r }; s = r[0][0][0] ].s",
        "[ x = { x.a, x }; r = x ].r",
        "[ r = { sum(r) } ].r",
        "[ r = eval(\"r\") ].r",
        "[ a = b; b = a ].a",
        "[ r = { r }.a ].r",
        "[ r = strcat(r, r) ].r",
        "[ r = { r }[0] ].r");
  }

  static Arbitrary<String> nesting() {
    Arbitrary<String> open =
        Arbitraries.of("(", "-", "!", "{", "[a=", "f(", "int(", "a[", "1+", "a?", "x?:", "~");
    return Combinators.combine(open, Arbitraries.integers().between(1, 3000))
        .as((o, n) -> o.repeat(n) + "1");
  }

  static Arbitrary<String> longStrings() {
    return Combinators.combine(
            Arbitraries.of("size", "toUpper", "substr", "stringListsIntersect", "eval", "string"),
            Arbitraries.integers().between(0, 200_000))
        .as(
            (f, n) -> {
              String s = "\"" + "a,".repeat(n / 2) + "\"";
              switch (f) {
                case "substr":
                  return "substr(" + s + ", 1, -1)";
                case "stringListsIntersect":
                  return "stringListsIntersect(" + s + ", " + s.replace('a', 'b') + ")";
                default:
                  return f + "(" + s + ")";
              }
            });
  }

  static Arbitrary<String> junk() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(300),
        Arbitraries.strings()
            .withChars("[]{}()=;,.\"'\\?:!~-+*/%<>&|^ aAxX019eE*+")
            .ofMaxLength(400));
  }

  @Property(tries = 50, seed = "77")
  void boundedLineReader_anyLine_readsBackAsBufferedReaderWould(
      @ForAll("junkWithBreaks") String text) throws IOException {
    List<String> expected = text.lines().toList();
    try (BoundedLineReader in = new BoundedLineReader(new StringReader(text), 1 << 20)) {
      for (String line : expected) {
        assertEquals(line, in.readLine());
      }
      assertEquals(null, in.readLine());
    }
  }

  @Provide
  Arbitrary<String> junkWithBreaks() {
    return Arbitraries.strings().withChars("ab\r\n ").ofMaxLength(200);
  }
}
