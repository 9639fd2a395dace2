package org.braid.predictors;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Reads the information provider's export of one probe series, the answer of {@code GET
 * /v1/series/NAME}: {@code {"series": NAME, "points": [{"time": ISO-8601, "value": number}, ...]}}
 * (docs/provider.md). Other members are ignored. A small pull parser for exactly this shape, so the
 * module needs no JSON library: strings, numbers, literals, arrays and objects up to a depth of
 * {@value #MAX_DEPTH}; strings of at most {@link SeriesReaders#MAX_LINE} characters. Errors name
 * the file, line and column.
 */
final class SeriesJson {

  static final int MAX_DEPTH = 16;

  private final Reader in;
  private final Path file;
  private int line = 1;
  private int column;
  private int peeked = -2;

  private SeriesJson(Reader in, Path file) {
    this.in = in;
    this.file = file;
  }

  /** Reads the series; the name is the answer's {@code series} member, else the file's name. */
  static Series read(Reader in, Path file) throws IOException {
    return new SeriesJson(in, file).series();
  }

  private Series series() throws IOException {
    expect('{');
    String name = file.getFileName().toString();
    Series.Builder b = null;
    if (!consume('}')) {
      do {
        String key = string();
        expect(':');
        switch (key) {
          case "series" -> name = string();
          case "points" -> b = points(name);
          default -> skipValue(1);
        }
      } while (consume(','));
      expect('}');
    }
    if (next() != -1) {
      throw bad("unexpected text after the answer");
    }
    if (b == null) {
      throw bad("no 'points' member: not a /v1/series/NAME answer");
    }
    return rename(b.build(), name);
  }

  private static Series rename(Series s, String name) {
    return s.name().equals(name) ? s : Series.of(name, s.samples());
  }

  private Series.Builder points(String name) throws IOException {
    Series.Builder b = Series.builder(name);
    expect('[');
    if (consume(']')) {
      return b;
    }
    do {
      int pointLine = line;
      expect('{');
      Instant time = null;
      Double value = null;
      if (!consume('}')) {
        do {
          String key = string();
          expect(':');
          switch (key) {
            case "time" -> time = time(string());
            case "value" -> value = number();
            default -> skipValue(3);
          }
        } while (consume(','));
        expect('}');
      }
      if (time == null || value == null) {
        throw bad("point " + b.size() + " lacks 'time' or 'value'");
      }
      try {
        b.add(time, value);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ":" + pointLine + ": " + e.getMessage(), e);
      }
    } while (consume(','));
    expect(']');
    return b;
  }

  private Instant time(String s) {
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw bad("time is not an ISO-8601 instant: '" + s + "'");
    }
  }

  private void skipValue(int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw bad("nested deeper than " + MAX_DEPTH);
    }
    int c = peek();
    if (c == '"') {
      string();
    } else if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      next();
      if (!consume(close)) {
        do {
          if (close == '}') {
            string();
            expect(':');
          }
          skipValue(depth + 1);
        } while (consume(','));
        expect(close);
      }
    } else if (c == 't' || c == 'f' || c == 'n') {
      StringBuilder word = new StringBuilder();
      while (Character.isLetter(peekRaw())) {
        word.append((char) nextRaw());
      }
      if (!word.toString().matches("true|false|null")) {
        throw bad("unexpected '" + word + "'");
      }
    } else {
      number();
    }
  }

  private double number() throws IOException {
    skipSpace();
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 64 && "+-0123456789.eE".indexOf(peekRaw()) >= 0 && peekRaw() != -1) {
      sb.append((char) nextRaw());
    }
    try {
      if (sb.length() == 0 || !sb.toString().matches("-?[0-9][0-9.eE+-]*")) {
        throw new NumberFormatException();
      }
      return Double.parseDouble(sb.toString());
    } catch (NumberFormatException e) {
      throw bad(
          "expected a number, got " + (sb.length() == 0 ? describe(peekRaw()) : "'" + sb + "'"));
    }
  }

  private String string() throws IOException {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      int c = nextRaw();
      if (c == -1 || c == '\n') {
        throw bad("unterminated string");
      }
      if (c == '"') {
        return sb.toString();
      }
      if (sb.length() >= SeriesReaders.MAX_LINE) {
        throw bad("string longer than " + SeriesReaders.MAX_LINE + " characters");
      }
      if (c == '\\') {
        int e = nextRaw();
        switch (e) {
          case '"', '\\', '/' -> sb.append((char) e);
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'u' -> sb.append(unicode());
          default -> throw bad("bad escape in a string");
        }
      } else {
        sb.append((char) c);
      }
    }
  }

  private char unicode() throws IOException {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(nextRaw(), 16);
      if (d < 0) {
        throw bad("bad \\u escape in a string");
      }
      v = v * 16 + d;
    }
    return (char) v;
  }

  private void expect(char c) throws IOException {
    int got = next();
    if (got != c) {
      throw bad("expected '" + c + "', got " + describe(got));
    }
  }

  private boolean consume(char c) throws IOException {
    if (peek() == c) {
      next();
      return true;
    }
    return false;
  }

  /** The next character that is not white space, consumed. */
  private int next() throws IOException {
    skipSpace();
    return nextRaw();
  }

  private int peek() throws IOException {
    skipSpace();
    return peekRaw();
  }

  private void skipSpace() throws IOException {
    while (Character.isWhitespace(peekRaw()) && peekRaw() != -1) {
      nextRaw();
    }
  }

  private int peekRaw() throws IOException {
    if (peeked == -2) {
      peeked = in.read();
    }
    return peeked;
  }

  private int nextRaw() throws IOException {
    int c = peekRaw();
    peeked = -2;
    if (c == '\n') {
      line++;
      column = 0;
    } else if (c != -1) {
      column++;
    }
    return c;
  }

  private static String describe(int c) {
    return c == -1 ? "the end of the file" : "'" + (char) c + "'";
  }

  private IllegalArgumentException bad(String reason) {
    return new IllegalArgumentException(file + ":" + line + ":" + column + ": " + reason);
  }
}
