package org.braid.provider;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(file + ": " + describe(file, e), e);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ": ";
      throw new IllegalArgumentException(
          file + ": " + where + e.getOriginalMessage().replace('\n', ' '), e);
    }
  }

  /**
   * One line for a configuration that does not map: the line of the key at fault (the key itself
   * for an unknown key or a bad value, the key a check names for a value its record refused, else
   * the mapping's first line), the key's path, and the problem.
   */
  private static String describe(Path file, JsonMappingException e) {
    List<String> path = new ArrayList<>();
    for (JsonMappingException.Reference r : e.getPath()) {
      path.add(r.getFieldName() != null ? r.getFieldName() : Integer.toString(r.getIndex()));
    }
    Throwable cause = e.getCause();
    String message;
    if (e instanceof UnrecognizedPropertyException u) {
      List<String> known = new ArrayList<>();
      u.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
      Collections.sort(known);
      message = "unknown key (known: " + String.join(", ", known) + ")";
    } else if (cause instanceof IllegalArgumentException) {
      message = cause.getMessage().replaceFirst("^config: ", "");
      if (cause instanceof ConfigException c) {
        path.add(c.key);
      }
    } else {
      message = e.getOriginalMessage().replace('\n', ' ');
    }
    Integer line = null;
    try {
      Map<String, Integer> lines = keyLines(file);
      for (int n = path.size(); n > 0 && line == null; n--) {
        line = lines.get(String.join("/", path.subList(0, n)));
      }
    } catch (IOException | RuntimeException unreadable) {
      // the file parsed a moment ago; without lines the message still names the key
    }
    String where = line == null ? "" : "line " + line + ": ";
    String key = String.join(".", path);
    // Checks of the records name their key already ("http.port must be ...", "logs: ...").
    boolean named = path.isEmpty() || message.startsWith(path.get(0));
    return where + (named ? "" : key + ": ") + message;
  }

  /** The line of every key (its path joined by '/', list items by index) and list item. */
  private static Map<String, Integer> keyLines(Path file) throws IOException {
    Map<String, Integer> lines = new HashMap<>();
    try (JsonParser p = new YAMLFactory().createParser(file.toFile())) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.FIELD_NAME || p.getParsingContext().getParent() != null) {
          String ptr = p.getParsingContext().pathAsPointer().toString();
          if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            ptr = p.getParsingContext().getParent().pathAsPointer().toString();
          }
          lines.putIfAbsent(
              ptr.isEmpty() ? "" : ptr.substring(1), p.currentTokenLocation().getLineNr());
        }
      }
    }
    return lines;
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
