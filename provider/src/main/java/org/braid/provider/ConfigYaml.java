package org.braid.provider;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads a {@link ProviderConfig} from YAML: unknown keys are errors, enums any case, durations as
 * {@link #parseDuration} reads them; every problem is one line naming the file (and the line, for
 * syntax errors).
 */
final class ConfigYaml {

  private ConfigYaml() {}

  /**
   * Reads a YAML configuration file.
   *
   * @throws IllegalArgumentException naming the file, line and problem for a bad configuration, or
   *     when the file does not exist
   * @throws IOException if the file cannot be read
   */
  static ProviderConfig load(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("configuration file not found: " + file);
    }
    try {
      return yaml().readValue(file.toFile(), ProviderConfig.class);
    } catch (JsonProcessingException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) {
        throw new IllegalArgumentException(file + ": " + cause.getMessage(), e);
      }
      String where = e.getLocation() == null ? "" : " line " + e.getLocation().getLineNr() + ":";
      throw new IllegalArgumentException(
          file + ":" + where + " " + e.getOriginalMessage().replace('\n', ' '), e);
    }
  }

  /** Parses "300s", "5m", "2h", "30d", "500ms" or an ISO-8601 duration ("PT5M"). */
  static Duration parseDuration(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1).trim());
      switch (t.charAt(t.length() - 1)) {
        case 's':
          return Duration.ofSeconds(n);
        case 'm':
          return Duration.ofMinutes(n);
        case 'h':
          return Duration.ofHours(n);
        case 'd':
          return Duration.ofDays(n);
        default:
          break;
      }
    } catch (RuntimeException e) {
      // fall through to the message below
    }
    throw new IllegalArgumentException("duration must look like 300s, 5m, 2h, 30d or PT5M: " + s);
  }

  private static ObjectMapper yaml() {
    SimpleModule m = new SimpleModule();
    m.addDeserializer(
        Duration.class,
        new StdDeserializer<Duration>(Duration.class) {
          @Override
          public Duration deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
            return parseDuration(p.getValueAsString());
          }
        });
    return JsonMapper.builder(new YAMLFactory())
        .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .addModule(m)
        .build();
  }
}
