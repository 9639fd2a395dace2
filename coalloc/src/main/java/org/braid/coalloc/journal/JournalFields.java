package org.braid.coalloc.journal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.braid.coalloc.journal.JournalLine.MalformedException;

/** Reads a journal line's JSON object into its values, and builds the line of each version. */
final class JournalFields {

  private JournalFields() {}

  /** The keys of a version 1 line, in the order they are written. */
  static final List<String> KEYS_V1 =
      List.of(
          "v",
          "download",
          "url",
          "server",
          "peer",
          "path",
          "offset",
          "bytes",
          "fileSize",
          "start",
          "end",
          "streams",
          "protocol",
          "result");

  /** The keys of a version 2 line, in the order they are written. */
  static final List<String> KEYS_V2 =
      List.of(
          "v",
          "download",
          "url",
          "server",
          "peer",
          "path",
          "fileSize",
          "bytes",
          "received",
          "start",
          "end",
          "busyMs",
          "requests",
          "failures",
          "connections",
          "sharedMs",
          "replicas",
          "flows",
          "streams",
          "protocol",
          "result");

  /** The line's values by key, each a Long or a String; refuses keys no version has. */
  static Map<String, Object> read(String line, JsonFactory json) throws MalformedException {
    Map<String, Object> v = new HashMap<>();
    try (JsonParser p = json.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedException("not a JSON object", "");
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!KEYS_V1.contains(key) && !KEYS_V2.contains(key)) {
          throw new MalformedException("unknown key", key);
        }
        if (v.containsKey(key)) {
          throw new MalformedException("duplicate key", key);
        }
        JsonToken value = p.nextToken();
        if (value == JsonToken.VALUE_NUMBER_INT) {
          v.put(key, p.getLongValue());
        } else if (value == JsonToken.VALUE_STRING) {
          v.put(key, p.getText());
        } else {
          throw new MalformedException("bad value", key + " must be a string or an integer");
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedException("truncated line", "object not closed");
      }
      if (p.nextToken() != null) {
        throw new MalformedException("trailing data", "after the object");
      }
    } catch (IOException e) {
      throw new MalformedException("truncated line", firstLine(e.getMessage()));
    }
    return v;
  }

  /**
   * A version 1 line from its values (all keys present).
   *
   * @throws IllegalArgumentException as the constructor
   */
  static JournalLine v1(Map<String, Object> v) throws MalformedException {
    return new JournalLine(
        text(v, "download"),
        text(v, "url"),
        text(v, "server"),
        text(v, "peer"),
        text(v, "path"),
        number(v, "offset"),
        number(v, "bytes"),
        number(v, "fileSize"),
        time(v, "start"),
        time(v, "end"),
        count(v, "streams", 65_535),
        text(v, "protocol"),
        text(v, "result"));
  }

  /**
   * A version 2 line from its values (all keys present).
   *
   * @throws IllegalArgumentException as the constructor
   */
  static JournalLine v2(Map<String, Object> v) throws MalformedException {
    return new JournalLine(
        2,
        text(v, "download"),
        text(v, "url"),
        text(v, "server"),
        text(v, "peer"),
        text(v, "path"),
        -1,
        number(v, "fileSize"),
        number(v, "bytes"),
        number(v, "received"),
        time(v, "start"),
        time(v, "end"),
        number(v, "busyMs"),
        count(v, "requests", Integer.MAX_VALUE),
        count(v, "failures", Integer.MAX_VALUE),
        count(v, "connections", 65_535),
        sharedMillis(v),
        count(v, "replicas", 65_535),
        count(v, "flows", Integer.MAX_VALUE),
        count(v, "streams", 65_535),
        text(v, "protocol"),
        text(v, "result"));
  }

  /** sharedMs: milliseconds, or -1 for unknown. */
  private static long sharedMillis(Map<String, Object> v) throws MalformedException {
    Object o = v.get("sharedMs");
    if (Long.valueOf(-1).equals(o)) {
      return -1;
    }
    return number(v, "sharedMs");
  }

  private static Instant time(Map<String, Object> v, String key) throws MalformedException {
    String s = text(v, key);
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedException("bad timestamp " + key, s);
    }
  }

  private static long number(Map<String, Object> v, String key) throws MalformedException {
    Object o = v.get(key);
    if (!(o instanceof Long)) {
      throw new MalformedException("bad number " + key, String.valueOf(o));
    }
    long n = (Long) o;
    if (n < 0) {
      throw new MalformedException("negative " + key, String.valueOf(n));
    }
    return n;
  }

  private static int count(Map<String, Object> v, String key, int max) throws MalformedException {
    long n = number(v, key);
    if (n > max) {
      throw new MalformedException("bad number " + key, String.valueOf(n));
    }
    return (int) n;
  }

  private static String text(Map<String, Object> v, String key) throws MalformedException {
    Object o = v.get(key);
    if (!(o instanceof String)) {
      throw new MalformedException("bad value", key + " must be a string");
    }
    return (String) o;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
