package org.braid.matchmaking;

/** One lexical token with its position (1-based line and column, 0-based offset). */
record Token(Kind kind, String text, Value value, int line, int column, int offset) {

  enum Kind {
    INTEGER,
    REAL,
    STRING,
    IDENTIFIER,
    QUOTED_IDENTIFIER,
    PUNCT,
    EOF
  }

  boolean is(String punct) {
    return kind == Kind.PUNCT && text.equals(punct);
  }

  boolean isKeyword(String word) {
    return kind == Kind.IDENTIFIER && text.equalsIgnoreCase(word);
  }

  String describe() {
    switch (kind) {
      case EOF:
        return "end of input";
      case STRING:
        return "string " + text;
      case PUNCT:
        return "'" + text + "'";
      default:
        return "'" + text + "'";
    }
  }
}
