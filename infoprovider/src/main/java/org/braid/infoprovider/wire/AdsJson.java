package org.braid.infoprovider.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The JSON form of a provider's {@code /v1/ads} answer: an array of flat objects whose attribute
 * names are {@link AdAttributes} and whose values are strings, integers or finite reals. {@link
 * #write} is the provider's side; {@link #parse} the broker's, which treats the answer as
 * untrusted: nesting, number length, attribute count and names are limited; NaN and infinities are
 * refused; a numeric attribute that is negative is dropped (it cannot be a bandwidth or a count).
 */
public final class AdsJson {

  /** The most ads an answer may hold: {@value}. */
  public static final int MAX_ADS = 10_000;

  /** The most attributes an ad may hold: {@value}. */
  public static final int MAX_ATTRIBUTES = 500;

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(4)
                  .maxNumberLength(40)
                  .maxStringLength(4096)
                  .build())
          .build();

  private AdsJson() {}

  /**
   * The answer for these ads (values String, Long or Double, in each map's order), one line.
   *
   * @throws IllegalArgumentException for a value of another type or a real that is not finite
   */
  public static String write(List<Map<String, Object>> ads) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartArray();
      for (Map<String, Object> ad : ads) {
        g.writeStartObject();
        for (Map.Entry<String, Object> e : ad.entrySet()) {
          Object v = e.getValue();
          if (v instanceof Double d && Double.isFinite(d)) {
            g.writeNumberField(e.getKey(), d);
          } else if (v instanceof Long l) {
            g.writeNumberField(e.getKey(), l);
          } else if (v instanceof String str) {
            g.writeStringField(e.getKey(), str);
          } else {
            throw new IllegalArgumentException(
                "ad attribute " + e.getKey() + " is not a string, integer or finite real: " + v);
          }
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string cannot fail", e);
    }
    return w.toString();
  }

  /**
   * Parses an answer.
   *
   * @throws IOException with a one-line reason if it is not an array of flat ads
   */
  public static List<Map<String, Object>> parse(byte[] body) throws IOException {
    List<Map<String, Object>> ads = new ArrayList<>();
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("answer is not a JSON array of ads");
      }
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.START_OBJECT) {
          throw new IOException("element " + ads.size() + " of the answer is not an object");
        }
        if (ads.size() >= MAX_ADS) {
          throw new IOException("more than " + MAX_ADS + " ads");
        }
        ads.add(ad(p, ads.size()));
      }
      if (p.nextToken() != null) {
        throw new IOException("trailing data after the array of ads");
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    return ads;
  }

  private static Map<String, Object> ad(JsonParser p, int index) throws IOException {
    Map<String, Object> ad = new LinkedHashMap<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (!NAME.matcher(name).matches()) {
        throw new IOException("ad " + index + ": bad attribute name");
      }
      if (ad.size() >= MAX_ATTRIBUTES) {
        throw new IOException("ad " + index + ": more than " + MAX_ATTRIBUTES + " attributes");
      }
      switch (v) {
        case VALUE_STRING:
          ad.put(name, p.getText());
          break;
        case VALUE_NUMBER_INT:
          if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            break; // does not fit a long: not a value a provider publishes
          }
          if (p.getLongValue() >= 0) {
            ad.put(name, p.getLongValue());
          }
          break;
        case VALUE_NUMBER_FLOAT:
          double d = p.getDoubleValue();
          if (Double.isFinite(d) && d >= 0) {
            ad.put(name, d);
          }
          break;
        case VALUE_TRUE:
        case VALUE_FALSE:
        case VALUE_NULL:
          break;
        default:
          throw new IOException(
              "ad " + index + ": attribute " + name + " is not a string or number");
      }
    }
    return ad;
  }
}
