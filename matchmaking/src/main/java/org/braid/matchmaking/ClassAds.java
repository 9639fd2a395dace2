package org.braid.matchmaking;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The entry point for reading ClassAd text: expressions, new-syntax ads ({@code [ a = 1; b = "x"
 * ]}) and old-syntax ads (one {@code Name = expr} per line, ads separated by blank lines).
 *
 * <p>Parsing is strict HTCondor syntax by default; {@link ParseOptions#PAPER} also accepts the
 * notation of the replica-selection paper ({@code 5M/sec}, lines ending in {@code ;}).
 */
public final class ClassAds {

  private ClassAds() {}

  /**
   * Parses one expression.
   *
   * @throws ClassAdParseException if the text is not one well-formed expression
   * @throws NullPointerException if an argument is null
   */
  public static Expr parseExpression(String text, ParseOptions options)
      throws ClassAdParseException {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(options, "options");
    return Parser.over(text, options).wholeExpression();
  }

  /** Parses one expression in strict syntax. See {@link #parseExpression(String, ParseOptions)}. */
  public static Expr parseExpression(String text) throws ClassAdParseException {
    return parseExpression(text, ParseOptions.DEFAULT);
  }

  /**
   * Parses one ad in new syntax, or, if the text does not start with {@code [}, in old syntax.
   *
   * @throws ClassAdParseException if the text is not exactly one well-formed ad
   * @throws NullPointerException if an argument is null
   */
  public static ClassAd parse(String text, ParseOptions options) throws ClassAdParseException {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(options, "options");
    if (startsNew(text)) {
      return Parser.over(text, options).wholeAd();
    }
    List<ClassAd> ads = parseOld(text, options);
    if (ads.size() != 1) {
      throw ClassAdParseException.at(
          text, "expected one ad, found " + ads.size() + " (ads are separated by blank lines)", 0);
    }
    return ads.get(0);
  }

  /** Parses one ad in strict syntax. See {@link #parse(String, ParseOptions)}. */
  public static ClassAd parse(String text) throws ClassAdParseException {
    return parse(text, ParseOptions.DEFAULT);
  }

  /**
   * Parses any number of ads: consecutive new-syntax ads, or old-syntax ads separated by blank
   * lines.
   *
   * @throws ClassAdParseException listing every bad line (old syntax) or the first problem
   * @throws NullPointerException if an argument is null
   */
  public static List<ClassAd> parseAll(String text, ParseOptions options)
      throws ClassAdParseException {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(options, "options");
    if (startsNew(text)) {
      return Parser.over(text, options).adSequence();
    }
    return parseOld(text, options);
  }

  /**
   * Reads a file of ClassAd text (UTF-8) for {@link #parse} or {@link #parseAll}, but never more
   * than {@code options.maxLength() + 1} characters of it: a larger file is not read whole, and
   * parsing what was read fails with "input exceeds the limit".
   *
   * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException} if it
   *     does not exist)
   * @throws NullPointerException if an argument is null
   */
  public static String readText(Path file, ParseOptions options) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    int max =
        options.maxLength() == Integer.MAX_VALUE ? Integer.MAX_VALUE : options.maxLength() + 1;
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      StringBuilder text = new StringBuilder();
      char[] buf = new char[8192];
      int n;
      while (text.length() < max
          && (n = in.read(buf, 0, Math.min(buf.length, max - text.length()))) >= 0) {
        text.append(buf, 0, n);
      }
      return text.toString();
    }
  }

  private static boolean startsNew(String text) {
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (!Character.isWhitespace(c)) {
        return c == '[';
      }
    }
    return false;
  }

  /** Old syntax: {@code Name = expr} per line; '#' comments; blank lines end an ad. */
  private static List<ClassAd> parseOld(String text, ParseOptions options)
      throws ClassAdParseException {
    Parser.checkLength(text, options);
    List<ClassAd> ads = new ArrayList<>();
    List<ClassAdParseException.Problem> problems = new ArrayList<>();
    ClassAd.Builder current = null;
    int offset = 0;
    for (String line : text.split("\n", -1)) {
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        if (current != null) {
          ads.add(current.build());
          current = null;
        }
      } else if (!trimmed.startsWith("#")) {
        if (current == null) {
          current = ClassAd.builder();
        }
        try {
          Parser.over(line, options).statements(current);
        } catch (ClassAdParseException e) {
          ClassAdParseException.Problem p = e.problems().get(0);
          int at = offset + lineOffset(line, p.column());
          problems.add(ClassAdParseException.problemAt(text, p.reason(), at));
        }
      }
      offset += line.length() + 1;
    }
    if (current != null) {
      ads.add(current.build());
    }
    if (!problems.isEmpty()) {
      throw new ClassAdParseException(problems);
    }
    return ads;
  }

  private static int lineOffset(String line, int column) {
    return Math.min(line.length(), column - 1);
  }
}
