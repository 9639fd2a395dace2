package org.braid.provider.publish;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** LDIF text (RFC 2849) and DN escaping (RFC 4514) shared by the LDIF layouts. */
final class LdifText {

  private LdifText() {}

  /** Appends {@code name: value}, base64-encoded ({@code name:: ...}) where RFC 2849 needs it. */
  static void attr(StringBuilder e, String name, String value) {
    e.append(name);
    if (needsBase64(value)) {
      e.append(":: ")
          .append(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    } else {
      e.append(": ").append(value);
    }
    e.append('\n');
  }

  /** RFC 2849: values starting with space, colon or '<', or with non-ASCII or CR/LF, are base64. */
  static boolean needsBase64(String v) {
    if (v.isEmpty()) {
      return false;
    }
    char c0 = v.charAt(0);
    if (c0 == ' ' || c0 == ':' || c0 == '<' || v.endsWith(" ")) {
      return true;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c > 126 || c == '\n' || c == '\r' || c == 0) {
        return true;
      }
    }
    return false;
  }

  /** Escapes an RDN value (RFC 4514). */
  static String rdn(String v) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (",+\"\\<>;=".indexOf(c) >= 0
          || (i == 0 && (c == '#' || c == ' '))
          || (i == v.length() - 1 && c == ' ')) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }
}
