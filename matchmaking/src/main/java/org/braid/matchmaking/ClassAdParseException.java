package org.braid.matchmaking;

import java.util.List;

/**
 * ClassAd text that does not parse. The message names the first problem with its line and column
 * and shows the offending line with a caret under the column; {@link #problems()} lists every
 * problem found (old-syntax input reports one per bad line).
 */
public final class ClassAdParseException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  /** One parse problem: 1-based line and column, the reason, and the source line with a caret. */
  public record Problem(int line, int column, String reason, String caretLine) {
    /** "line L, column C: reason". */
    public String summary() {
      return "line " + line + ", column " + column + ": " + reason;
    }
  }

  /**
   * Creates an exception for the given problems.
   *
   * @throws IllegalArgumentException if {@code problems} is empty
   */
  public ClassAdParseException(List<Problem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  private static String message(List<Problem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a parse exception needs at least one problem");
    }
    Problem p = problems.get(0);
    String more = problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : "";
    return p.summary() + more + "\n" + p.caretLine();
  }

  static ClassAdParseException at(String src, String reason, int offset) {
    return new ClassAdParseException(List.of(problemAt(src, reason, offset)));
  }

  static Problem problemAt(String src, String reason, int offset) {
    int o = Math.max(0, Math.min(offset, src.length()));
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < o; i++) {
      if (src.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int lineEnd = src.indexOf('\n', lineStart);
    if (lineEnd < 0) {
      lineEnd = src.length();
    }
    String text = src.substring(lineStart, lineEnd);
    int column = o - lineStart + 1;
    if (text.length() > 200) {
      int from = Math.max(0, column - 100);
      text = text.substring(from, Math.min(text.length(), from + 200));
      column = o - lineStart - from + 1;
      String caret = text + "\n" + " ".repeat(column - 1) + "^";
      return new Problem(line, o - lineStart + 1, reason, caret);
    }
    String caret = text + "\n" + " ".repeat(column - 1) + "^";
    return new Problem(line, column, reason, caret);
  }

  /** The first problem's line (1-based). */
  public int line() {
    return problems.get(0).line();
  }

  /** The first problem's column (1-based). */
  public int column() {
    return problems.get(0).column();
  }

  /** The first problem's reason without position. */
  public String reason() {
    return problems.get(0).reason();
  }

  /** Every problem found, in input order. */
  public List<Problem> problems() {
    return problems;
  }

  /** The first problem on one line: "line L, column C: reason". */
  public String oneLine() {
    return problems.get(0).summary();
  }
}
