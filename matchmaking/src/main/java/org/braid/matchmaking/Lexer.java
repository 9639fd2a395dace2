package org.braid.matchmaking;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits ClassAd text into tokens. Numbers follow HTCondor: decimal integers (an integer too large
 * for 64 bits reads as 0, as HTCondor's lexer does) and reals with a fraction or an exponent. With
 * the paper extension on, a number may carry an SI or binary suffix and a rate unit ({@code
 * 5M/sec}).
 */
final class Lexer {

  private static final String[] PUNCTS = {
    ">>>", "=?=", "=!=", "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "[", "]", "{", "}", "(",
    ")", ";", ",", ".", "=", "?", ":", "|", "^", "&", "<", ">", "+", "-", "*", "/", "%", "!", "~"
  };

  private final String src;
  private final boolean suffixes;
  private int pos;
  private int line = 1;
  private int lineStart;

  Lexer(String src, boolean suffixes) {
    this.src = src;
    this.suffixes = suffixes;
  }

  static List<Token> tokenize(String src, boolean suffixes) throws ClassAdParseException {
    Lexer lx = new Lexer(src, suffixes);
    List<Token> out = new ArrayList<>();
    Token t;
    do {
      t = lx.next();
      out.add(t);
    } while (t.kind() != Token.Kind.EOF);
    return out;
  }

  private ClassAdParseException error(String message, int at) {
    return ClassAdParseException.at(src, message, at);
  }

  Token next() throws ClassAdParseException {
    skipSpaceAndComments();
    int start = pos;
    int col = pos - lineStart + 1;
    if (pos >= src.length()) {
      return new Token(Token.Kind.EOF, "", null, line, col, pos);
    }
    char c = src.charAt(pos);
    if (Character.isLetter(c) && c < 128 || c == '_') {
      while (pos < src.length() && isIdentPart(src.charAt(pos))) {
        pos++;
      }
      return new Token(Token.Kind.IDENTIFIER, src.substring(start, pos), null, line, col, start);
    }
    if (isDigit(c) || c == '.' && pos + 1 < src.length() && isDigit(src.charAt(pos + 1))) {
      return number(start, col);
    }
    if (c == '"') {
      String s = quoted('"', start);
      return new Token(Token.Kind.STRING, src.substring(start, pos), Value.of(s), line, col, start);
    }
    if (c == '\'') {
      String s = quoted('\'', start);
      if (s.isEmpty()) {
        throw error("empty quoted attribute name", start);
      }
      return new Token(Token.Kind.QUOTED_IDENTIFIER, s, null, line, col, start);
    }
    for (String p : PUNCTS) {
      if (src.startsWith(p, pos)) {
        pos += p.length();
        return new Token(Token.Kind.PUNCT, p, null, line, col, start);
      }
    }
    throw error("unexpected character '" + printable(c) + "'", start);
  }

  private static String printable(char c) {
    return c < 32 || c == 127 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isIdentPart(char c) {
    return c < 128 && (Character.isLetterOrDigit(c) || c == '_');
  }

  private void skipSpaceAndComments() throws ClassAdParseException {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == '\n') {
        pos++;
        line++;
        lineStart = pos;
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else if (c == '/' && pos + 1 < src.length() && src.charAt(pos + 1) == '/') {
        while (pos < src.length() && src.charAt(pos) != '\n') {
          pos++;
        }
      } else if (c == '/' && pos + 1 < src.length() && src.charAt(pos + 1) == '*') {
        int start = pos;
        pos += 2;
        while (pos < src.length() && !src.startsWith("*/", pos)) {
          if (src.charAt(pos) == '\n') {
            line++;
            lineStart = pos + 1;
          }
          pos++;
        }
        if (pos >= src.length()) {
          throw error("unterminated comment", start);
        }
        pos += 2;
      } else {
        return;
      }
    }
  }

  private Token number(int start, int col) throws ClassAdParseException {
    boolean real = false;
    while (pos < src.length() && isDigit(src.charAt(pos))) {
      pos++;
    }
    if (pos < src.length() && src.charAt(pos) == '.') {
      real = true;
      pos++;
      int digits = pos;
      while (pos < src.length() && isDigit(src.charAt(pos))) {
        pos++;
      }
      if (pos == digits) {
        throw error("expected digits after the decimal point", start);
      }
    }
    if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
      int save = pos;
      pos++;
      if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
        pos++;
      }
      int digits = pos;
      while (pos < src.length() && isDigit(src.charAt(pos))) {
        pos++;
      }
      if (pos == digits) {
        if (suffixes && !real) {
          pos = save; // "5E" is not an exponent here; let the suffix code decide
        } else {
          throw error("expected digits in the exponent", start);
        }
      } else {
        real = true;
      }
    }
    String digits = src.substring(start, pos);
    if (suffixes) {
      Token t = suffixed(digits, real, start, col);
      if (t != null) {
        return t;
      }
    }
    if (pos < src.length() && isIdentPart(src.charAt(pos))) {
      throw error("unexpected character '" + src.charAt(pos) + "' after number " + digits, pos);
    }
    if (real) {
      return new Token(
          Token.Kind.REAL, digits, Value.of(Double.parseDouble(digits)), line, col, start);
    }
    return new Token(Token.Kind.INTEGER, digits, Value.of(parseLong(digits)), line, col, start);
  }

  /** An integer literal out of 64-bit range reads as 0, as in HTCondor. */
  static long parseLong(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The paper's notation: 5M, 50G, 2Gi, 6000K, optionally followed by /s or /sec. */
  private Token suffixed(String digits, boolean real, int start, int col) {
    if (pos >= src.length()) {
      return null;
    }
    int exp;
    switch (Character.toUpperCase(src.charAt(pos))) {
      case 'K':
        exp = 1;
        break;
      case 'M':
        exp = 2;
        break;
      case 'G':
        exp = 3;
        break;
      case 'T':
        exp = 4;
        break;
      case 'P':
        exp = 5;
        break;
      default:
        return null;
    }
    int p = pos + 1;
    boolean binary = p < src.length() && src.charAt(p) == 'i';
    if (binary) {
      p++;
    }
    if (p < src.length() && isIdentPart(src.charAt(p))) {
      return null;
    }
    if (src.startsWith("/sec", p) && (p + 4 >= src.length() || !isIdentPart(src.charAt(p + 4)))) {
      p += 4;
    } else if (src.startsWith("/s", p)
        && (p + 2 >= src.length() || !isIdentPart(src.charAt(p + 2)))) {
      p += 2;
    }
    pos = p;
    BigDecimal factor = binary ? new BigDecimal(1L << (10 * exp)) : BigDecimal.TEN.pow(3 * exp);
    BigDecimal v = new BigDecimal(digits).multiply(factor);
    String text = src.substring(start, pos);
    if (!real) {
      return new Token(Token.Kind.INTEGER, text, Value.of(v.longValue()), line, col, start);
    }
    return new Token(Token.Kind.REAL, text, Value.of(v.doubleValue()), line, col, start);
  }

  private String quoted(char quote, int start) throws ClassAdParseException {
    // Octal escapes are bytes of UTF-8, as HTCondor writes non-ASCII characters.
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= src.length()) {
        throw error(quote == '"' ? "unterminated string" : "unterminated quoted name", start);
      }
      char c = src.charAt(pos++);
      if (c == quote) {
        flush(bytes, sb);
        return sb.toString();
      }
      if (c == '\n') {
        line++;
        lineStart = pos;
      }
      if (c != '\\') {
        flush(bytes, sb);
        sb.append(c);
        continue;
      }
      if (pos >= src.length()) {
        throw error("unterminated string", start);
      }
      char e = src.charAt(pos++);
      if (e >= '0' && e <= '7') {
        int v = e - '0';
        int max = e <= '3' ? 2 : 1;
        for (int k = 0; k < max && pos < src.length(); k++) {
          char d = src.charAt(pos);
          if (d < '0' || d > '7') {
            break;
          }
          v = v * 8 + (d - '0');
          pos++;
        }
        bytes.write(v);
        continue;
      }
      flush(bytes, sb);
      sb.append(escape(e));
    }
  }

  private static void flush(java.io.ByteArrayOutputStream bytes, StringBuilder sb) {
    if (bytes.size() > 0) {
      sb.append(new String(bytes.toByteArray(), java.nio.charset.StandardCharsets.UTF_8));
      bytes.reset();
    }
  }

  private static char escape(char e) {
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'a':
        return '\u0007';
      case 'v':
        return '\u000b';
      default:
        return e;
    }
  }
}
