package org.braid.matchmaking;

/**
 * Reads regular-expression text without compiling it: an upper bound on the size of the program
 * RE2/J would build (counted repetitions multiply what they repeat: {@code (a{1000}){1000}} is a
 * million), and PCRE's extended mode ({@code x}), which RE2/J lacks, rewritten as plain syntax.
 * Both run in one pass with an explicit stack, linear in the pattern.
 */
final class RegexSyntax {

  /** Sizes saturate here, far above any limit, so that they cannot overflow. */
  private static final long CAP = 1L << 40;

  /** PCRE2's default limit on nested parentheses, so HTCondor rejects deeper patterns too. */
  static final int MAX_GROUP_DEPTH = 250;

  private RegexSyntax() {}

  /**
   * The size and depth of a pattern before it is compiled.
   *
   * @param size an upper bound on the number of instructions of the compiled program: each atom (a
   *     character, an escape, a class) counts one, each group two more, each operator one more, and
   *     {@code x{n,m}} counts x max(n, m) + 1 times
   * @param depth how deeply groups nest
   */
  record Shape(long size, int depth) {}

  static Shape shape(String p) {
    int n = p.length();
    int maxDepth = 0;
    long[] total = new long[n + 2]; // size of the sequence at each open group level
    long[] last = new long[n + 2]; // size of the last atom at that level (what a repeat repeats)
    int d = 0;
    for (int i = 0; i < n; i++) {
      char c = p.charAt(i);
      long atom = 1;
      switch (c) {
        case '\\':
          {
            int end = escapeEnd(p, i);
            atom = p.startsWith("\\Q", i) ? Math.max(1, end - i - 4) : 1;
            i = end - 1;
            break;
          }
        case '[':
          i = classEnd(p, i) - 1;
          break;
        case '(':
          if (p.startsWith("(?", i) && flagsOnly(p, i)) {
            i = p.indexOf(')', i);
            continue;
          }
          d++;
          maxDepth = Math.max(maxDepth, d);
          total[d] = 0;
          last[d] = 0;
          continue;
        case ')':
          if (d > 0) {
            atom = add(total[d], 2);
            d--;
          }
          break;
        case '|':
          total[d] = add(total[d], 1);
          last[d] = 0;
          continue;
        case '*':
        case '+':
        case '?':
          total[d] = add(total[d], 1);
          continue;
        case '{':
          {
            int[] rep = repeat(p, i);
            if (rep != null) {
              long copies = Math.max(rep[0], rep[1]) + 1L;
              total[d] = add(total[d], mul(last[d], copies - 1) + copies);
              last[d] = mul(last[d], copies);
              i = rep[2];
              continue;
            }
            break;
          }
        default:
          break;
      }
      total[d] = add(total[d], atom);
      last[d] = atom;
    }
    while (d > 0) {
      total[d - 1] = add(total[d - 1], total[d]);
      d--;
    }
    return new Shape(add(total[0], 2), maxDepth);
  }

  private static long add(long a, long b) {
    return Math.min(CAP, a + b);
  }

  private static long mul(long a, long b) {
    return a != 0 && b > CAP / a ? CAP : Math.min(CAP, a * b);
  }

  /** True for {@code (?flags)}, which sets flags and opens no group. */
  private static boolean flagsOnly(String p, int open) {
    for (int k = open + 2; k < p.length(); k++) {
      char c = p.charAt(k);
      if (c == ')') {
        return true;
      }
      if (!Character.isLetter(c) && c != '-') {
        return false;
      }
    }
    return false;
  }

  /** The index just past the escape that starts at {@code i} (a backslash). */
  private static int escapeEnd(String p, int i) {
    int n = p.length();
    if (i + 1 >= n) {
      return n;
    }
    char e = p.charAt(i + 1);
    if (e == 'Q') {
      int q = p.indexOf("\\E", i + 2);
      return q < 0 ? n : q + 2;
    }
    if ((e == 'p' || e == 'P' || e == 'x') && i + 2 < n && p.charAt(i + 2) == '{') {
      int close = p.indexOf('}', i + 3);
      return close < 0 ? n : close + 1;
    }
    return i + 2;
  }

  /** The index just past the character class that starts at {@code i} (a '['). */
  private static int classEnd(String p, int i) {
    int n = p.length();
    int k = i + 1;
    if (k < n && p.charAt(k) == '^') {
      k++;
    }
    if (k < n && p.charAt(k) == ']') {
      k++; // a ']' first in a class is a member
    }
    while (k < n) {
      char c = p.charAt(k);
      if (c == '\\') {
        k = escapeEnd(p, k);
      } else if (c == '[' && k + 1 < n && p.charAt(k + 1) == ':') {
        int close = p.indexOf(":]", k + 2);
        k = close < 0 ? k + 1 : close + 2;
      } else if (c == ']') {
        return k + 1;
      } else {
        k++;
      }
    }
    return n;
  }

  /**
   * {min, max, index of the closing brace} of a repeat {n}, {n,} or {n,m} at {@code i}; else null.
   */
  private static int[] repeat(String p, int i) {
    int close = p.indexOf('}', i);
    if (close < 0 || close - i > 24) {
      return null;
    }
    String body = p.substring(i + 1, close);
    int comma = body.indexOf(',');
    String lo = comma < 0 ? body : body.substring(0, comma);
    String hi = comma < 0 ? body : body.substring(comma + 1);
    if (!digits(lo, 1) || !digits(hi, 0)) {
      return null;
    }
    int min = Integer.parseInt(lo);
    int max = hi.isEmpty() ? min : Integer.parseInt(hi);
    return new int[] {min, max, close};
  }

  /** True if {@code s} is {@code atLeast} to 9 ASCII digits. */
  private static boolean digits(String s, int atLeast) {
    if (s.length() < atLeast || s.length() > 9) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (s.charAt(k) < '0' || s.charAt(k) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * PCRE's extended mode as plain syntax: white space and {@code #} comments (to the end of the
   * line) outside character classes and {@code \Q...\E} are dropped; escaped characters are kept.
   */
  static String stripExtended(String p) {
    StringBuilder out = new StringBuilder(p.length());
    int n = p.length();
    int i = 0;
    while (i < n) {
      char c = p.charAt(i);
      int next;
      if (c == '\\') {
        next = escapeEnd(p, i);
      } else if (c == '[') {
        next = classEnd(p, i);
      } else if (c == '#') {
        int nl = p.indexOf('\n', i);
        i = nl < 0 ? n : nl + 1;
        continue;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000b') {
        i++;
        continue;
      } else {
        next = i + 1;
      }
      out.append(p, i, next);
      i = next;
    }
    return out.toString();
  }
}
