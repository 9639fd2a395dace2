package org.braid.matchmaking;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.function.Supplier;

/**
 * A regular expression for the ClassAd functions, matched by RE2/J (com.google.re2j): time linear
 * in the text times the program, never backtracking, so no pattern and text can hang an evaluation
 * ({@code java.util.regex} took hours on {@code ((a+)+)+$} against {@code aaa...ab}). Every
 * character the matcher reads costs a quarter of the program's size in steps of the evaluation's
 * {@link Budget} (RE2's worst case per character, priced against an evaluation step), and the
 * matcher stops with the budget; a pattern whose program would be larger than {@link
 * EvalOptions#maxPatternSize()} is not compiled at all.
 *
 * <p>RE2's syntax is PCRE's without backreferences, lookaround, possessive quantifiers and atomic
 * groups (those patterns give error); {@code $} without the {@code m} option matches only at the
 * very end, where PCRE also matches before a final newline. Options as HTCondor reads them: {@code
 * i} ignores case, {@code m} multi-line, {@code s} dot matches newline, {@code x} extended (white
 * space and {@code #} comments outside classes are dropped before compiling).
 */
final class Regex {

  /** Programs up to this size match on the caller's stack (about 50 KiB of it at most). */
  static final int SMALL_PROGRAM = 500;

  private final String source;
  private final int flags;
  private final Pattern first;
  private final Budget budget;
  private Pattern longest; // leftmost-longest, made on first need

  private Regex(String source, int flags, Pattern first, Budget budget) {
    this.source = source;
    this.flags = flags;
    this.first = first;
    this.budget = budget;
  }

  /**
   * Compiles {@code pattern} with HTCondor's option letters; null when it does not compile or is
   * larger than the budget's options allow (that limit is recorded in the budget).
   */
  static Regex compile(String pattern, String options, Budget budget) {
    int flags = 0;
    if (options.indexOf('i') >= 0) {
      flags |= Pattern.CASE_INSENSITIVE;
    }
    if (options.indexOf('m') >= 0) {
      flags |= Pattern.MULTILINE;
    }
    if (options.indexOf('s') >= 0) {
      flags |= Pattern.DOTALL;
    }
    String source = options.indexOf('x') >= 0 ? RegexSyntax.stripExtended(pattern) : pattern;
    RegexSyntax.Shape shape = RegexSyntax.shape(source);
    if (shape.depth() > RegexSyntax.MAX_GROUP_DEPTH) {
      return null; // PCRE: "parentheses are too deeply nested"
    }
    int max = budget.options.maxPatternSize();
    if (shape.size() > max) {
      budget.reached("regular expression larger than " + max + " instructions");
      return null;
    }
    budget.charge(shape.size()); // compiling is linear in the program it builds
    try {
      return new Regex(source, flags, Pattern.compile(source, flags), budget);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /**
   * Runs {@code work}, which matches with this pattern, where RE2/J's matcher has the stack it
   * needs: it recurses once per instruction along a path of empty-width steps, so a large program
   * ({@code (a?){5000}}) matches on a helper thread with a stack of {@link DeepStack#REGEX_BYTES}.
   */
  <T> T withStack(Supplier<T> work) {
    if (first.programSize() <= SMALL_PROGRAM) {
      return work.get();
    }
    budget.charge(DeepStack.STEPS);
    return budget.deepStack().runLarge(work);
  }

  /** True if the pattern matches somewhere in {@code text}. */
  boolean find(String text) {
    return matcher(text).find();
  }

  /** A leftmost-first matcher over {@code text} that charges the budget for what it reads. */
  Matcher matcher(String text) {
    return first.matcher(new Counted(text, costPerCharacter(first), budget));
  }

  /**
   * The longest non-empty match that starts exactly at {@code at}, or null (PCRE's {@code
   * PCRE2_ANCHORED | PCRE2_NOTEMPTY_ATSTART}, which HTCondor uses after an empty match).
   */
  Matcher nonEmptyMatchAt(String text, int at) {
    if (longest == null) {
      longest = Pattern.compile(source, flags | Pattern.LONGEST_MATCH);
      budget.charge(longest.programSize());
    }
    Matcher m = longest.matcher(new Counted(text, costPerCharacter(longest), budget));
    if (m.find(at) && m.start() == at && m.end() > at) {
      return m;
    }
    return null;
  }

  /**
   * Steps per character read: RE2/J's automaton does at most one step per instruction per
   * character, about 40 ns each here, a quarter of what an evaluation step costs.
   */
  private static int costPerCharacter(Pattern p) {
    return Math.max(1, (p.programSize() + 3) / 4);
  }

  /** A text whose every character read costs {@code cost} steps. */
  private static final class Counted implements CharSequence {
    private final String text;
    private final int cost;
    private final Budget budget;

    Counted(String text, int cost, Budget budget) {
      this.text = text;
      this.cost = cost;
      this.budget = budget;
    }

    @Override
    public char charAt(int index) {
      budget.charge(cost);
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end); // copying out a group: paid for as the result string
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
