package org.braid.infoprovider.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.braid.infoprovider.store.Point;

/**
 * The JSON of a provider's probe series: {@code /v1/series} is an array of names, {@code
 * /v1/series/NAME} is {@code {"series": NAME, "points": [{"time": ISO-8601, "value": number}]}}.
 * The writers are the provider's side, the readers the broker's (untrusted input, the limits of
 * {@link AdsJson}).
 */
public final class SeriesJson {

  /** The most names or points an answer may hold: {@value}. */
  public static final int MAX_ITEMS = 100_000;

  /**
   * One series' answer.
   *
   * @param name the series' name, e.g. {@code network/10.0.0.1/bandwidth}
   * @param points its points, oldest first
   */
  public record Answer(String name, List<Point> points) {
    /** Copies the points. */
    public Answer {
      points = List.copyOf(points);
    }
  }

  private SeriesJson() {}

  /** The {@code /v1/series} answer. */
  public static String writeNames(Collection<String> names) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = AdsJson.JSON.createGenerator(w)) {
      g.writeStartArray();
      for (String n : names) {
        g.writeString(n);
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string cannot fail", e);
    }
    return w.toString();
  }

  /**
   * Parses a {@code /v1/series} answer.
   *
   * @throws IOException with a one-line reason if it is not an array of at most {@link #MAX_ITEMS}
   *     names
   */
  public static List<String> readNames(byte[] body) throws IOException {
    List<String> out = new ArrayList<>();
    try (JsonParser p = AdsJson.JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("series list is not a JSON array");
      }
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.VALUE_STRING || out.size() >= MAX_ITEMS) {
          throw new IOException("series list holds something other than names, or too many");
        }
        out.add(p.getText());
      }
    } catch (JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    return out;
  }

  /** A {@code /v1/series/NAME} answer. */
  public static String write(Answer a) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = AdsJson.JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeStringField("series", a.name());
      g.writeArrayFieldStart("points");
      for (Point pt : a.points()) {
        g.writeStartObject();
        g.writeStringField("time", pt.time().toString());
        g.writeNumberField("value", pt.value());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string cannot fail", e);
    }
    return w.toString();
  }

  /**
   * Parses a {@code /v1/series/NAME} answer. Other keys are ignored; a point without a time, or
   * whose value is missing, not finite or negative, is skipped (a probe never measures less than
   * nothing).
   *
   * @throws IOException with a one-line reason if it is not such an object
   */
  public static Answer read(byte[] body) throws IOException {
    String name = null;
    List<Point> points = new ArrayList<>();
    try (JsonParser p = AdsJson.JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("series answer is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken v = p.nextToken();
        if (key.equals("series") && v == JsonToken.VALUE_STRING) {
          name = p.getText();
        } else if (key.equals("points") && v == JsonToken.START_ARRAY) {
          readPoints(p, points);
        } else {
          p.skipChildren();
        }
      }
    } catch (JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    return new Answer(name == null ? "" : name, points);
  }

  private static void readPoints(JsonParser p, List<Point> points) throws IOException {
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.START_OBJECT) {
        throw new IOException("series point is not an object");
      }
      if (points.size() >= MAX_ITEMS) {
        throw new IOException("more than " + MAX_ITEMS + " series points");
      }
      Instant time = null;
      Double value = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken v = p.nextToken();
        if (key.equals("time") && v == JsonToken.VALUE_STRING) {
          time = instant(p.getText());
        } else if (key.equals("value") && v.isNumeric()) {
          value = p.getDoubleValue();
        } else {
          p.skipChildren();
        }
      }
      if (time != null && value != null && Double.isFinite(value) && value >= 0) {
        points.add(new Point(time, value));
      }
    }
  }

  private static Instant instant(String s) {
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
