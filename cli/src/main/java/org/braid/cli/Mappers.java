package org.braid.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The CLI's Jackson mappers, created on first use. Picocli instantiates every subcommand when the
 * command line is built, so a mapper in a command's static field would cost every invocation (also
 * {@code braid get}) the ~0.2 s of loading Jackson databind.
 */
final class Mappers {
  private Mappers() {}

  private static final class Compact {
    static final ObjectMapper M = new ObjectMapper();
  }

  private static final class Indented {
    static final ObjectMapper M = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  }

  /** One-line JSON. */
  static ObjectMapper json() {
    return Compact.M;
  }

  /** Indented JSON for humans and scripts. */
  static ObjectMapper indented() {
    return Indented.M;
  }
}
