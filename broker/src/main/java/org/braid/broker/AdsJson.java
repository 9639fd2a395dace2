package org.braid.broker;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the JSON form of a provider's {@code /v1/ads} (an array of flat objects, as the
 * infoprovider's {@code StorageAds.json} writes it), treating it as untrusted: nesting, number
 * length, attribute count and names are limited; NaN and infinities are refused; a numeric
 * attribute that is negative is dropped (it cannot be a bandwidth or a count).
 */
final class AdsJson {

  static final int MAX_ADS = 10_000;
  static final int MAX_ATTRIBUTES = 500;
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  private static final JsonFactory JSON =
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
   * Parses the body.
   *
   * @throws IOException with a one-line reason if it is not an array of flat ads
   */
  static List<Map<String, Object>> parse(byte[] body) throws IOException {
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

  /** The names of a {@code /v1/series} answer (a JSON array of strings), at most 10,000. */
  static List<String> names(byte[] body) throws IOException {
    List<String> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("series list is not a JSON array");
      }
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.VALUE_STRING || out.size() >= MAX_ADS) {
          throw new IOException("series list holds something other than names, or too many");
        }
        out.add(p.getText());
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    return out;
  }

  /**
   * The value of the last point of a {@code /v1/series/NAME} answer ({@code {series, points:
   * [{time, value}]}}), or null when there is none or it is not a finite, non-negative number.
   */
  static Double lastValue(byte[] body) throws IOException {
    Double last = null;
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("series answer is not a JSON object");
      }
      int depth = 1;
      JsonToken t;
      while (depth > 0 && (t = p.nextToken()) != null) {
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          depth++;
        } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          depth--;
        } else if (t.isNumeric() && "value".equals(p.currentName()) && depth == 3) {
          double d = p.getDoubleValue();
          last = Double.isFinite(d) && d >= 0 ? d : null;
        }
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    return last;
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
