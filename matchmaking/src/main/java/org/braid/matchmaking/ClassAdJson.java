package org.braid.matchmaking;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * ClassAds to and from JSON in HTCondor's form ({@code condor_q -json}): an ad is an object, lists
 * are arrays, integers, reals, strings and booleans are JSON values, undefined is {@code null}, and
 * every other expression is a string {@code "\/Expr(...)\/"} holding its ClassAd syntax. Reals are
 * written with enough digits to read back exactly. Thread-safe.
 */
public final class ClassAdJson {

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final String EXPR_OPEN = "/Expr(";
  private static final String EXPR_CLOSE = ")/";

  private ClassAdJson() {}

  /**
   * The ad as one JSON object, pretty-printed when {@code pretty}.
   *
   * @throws NullPointerException if {@code ad} is null
   */
  public static String toJson(ClassAd ad, boolean pretty) {
    Objects.requireNonNull(ad, "ad");
    return write(g -> writeAd(g, ad), pretty);
  }

  /**
   * The ads as a JSON array of objects.
   *
   * @throws NullPointerException if the list or an element is null
   */
  public static String toJson(List<ClassAd> ads, boolean pretty) {
    Objects.requireNonNull(ads, "ads");
    return write(
        g -> {
          g.writeStartArray();
          for (ClassAd ad : ads) {
            writeAd(g, Objects.requireNonNull(ad, "ad"));
          }
          g.writeEndArray();
        },
        pretty);
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static String write(Body body, boolean pretty) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      if (pretty) {
        g.useDefaultPrettyPrinter();
      }
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return w.toString();
  }

  private static void writeAd(JsonGenerator g, ClassAd ad) throws IOException {
    g.writeStartObject();
    for (String name : ad.names()) {
      g.writeFieldName(name);
      writeExpr(g, ad.lookup(name));
    }
    g.writeEndObject();
  }

  private static void writeExpr(JsonGenerator g, Expr e) throws IOException {
    if (e instanceof Expr.AdExpr a) {
      writeAd(g, a.ad());
      return;
    }
    if (e instanceof Expr.ListExpr l) {
      g.writeStartArray();
      for (Expr item : l.items()) {
        writeExpr(g, item);
      }
      g.writeEndArray();
      return;
    }
    if (e instanceof Expr.Literal lit) {
      Value v = lit.value();
      if (v instanceof Value.IntegerValue i) {
        g.writeNumber(i.value());
        return;
      }
      if (v instanceof Value.RealValue r && Double.isFinite(r.value())) {
        g.writeNumber(Double.toString(r.value()));
        return;
      }
      if (v instanceof Value.StringValue s) {
        g.writeString(s.value());
        return;
      }
      if (v instanceof Value.BooleanValue b) {
        g.writeBoolean(b.value());
        return;
      }
      if (v instanceof Value.UndefinedValue) {
        g.writeNull();
        return;
      }
    }
    g.writeString(EXPR_OPEN + e.unparse() + EXPR_CLOSE);
  }

  /**
   * Reads one JSON object as an ad.
   *
   * @throws ClassAdParseException if the text is not one JSON object or an embedded expression does
   *     not parse
   * @throws NullPointerException if {@code json} is null
   */
  public static ClassAd fromJson(String json) throws ClassAdParseException {
    List<ClassAd> ads = fromJsonAll(json);
    if (ads.size() != 1) {
      throw ClassAdParseException.at(json, "expected one JSON object, found " + ads.size(), 0);
    }
    return ads.get(0);
  }

  /**
   * Reads a JSON object or an array of objects.
   *
   * @throws ClassAdParseException if the text is not JSON of that shape, with line and column
   * @throws NullPointerException if {@code json} is null
   */
  public static List<ClassAd> fromJsonAll(String json) throws ClassAdParseException {
    Objects.requireNonNull(json, "json");
    try (JsonParser p = FACTORY.createParser(json)) {
      JsonToken t = p.nextToken();
      List<ClassAd> out = new ArrayList<>();
      if (t == JsonToken.START_OBJECT) {
        out.add(readAd(p, json));
      } else if (t == JsonToken.START_ARRAY) {
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
          if (t != JsonToken.START_OBJECT) {
            throw error(json, p, "expected a JSON object in the array");
          }
          out.add(readAd(p, json));
        }
      } else {
        throw error(json, p, "expected a JSON object or array");
      }
      if (p.nextToken() != null) {
        throw error(json, p, "unexpected text after the JSON value");
      }
      return out;
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      String msg = e.getOriginalMessage().lines().findFirst().orElse("bad JSON");
      throw problem(json, loc, msg);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ClassAdParseException error(String json, JsonParser p, String reason) {
    return problem(json, p.currentLocation(), reason);
  }

  private static ClassAdParseException problem(String json, JsonLocation loc, String reason) {
    int line = loc == null ? 1 : Math.max(1, loc.getLineNr());
    int col = loc == null ? 1 : Math.max(1, loc.getColumnNr());
    int offset = 0;
    for (int l = 1; l < line && offset < json.length(); offset++) {
      if (json.charAt(offset) == '\n') {
        l++;
      }
    }
    return ClassAdParseException.at(json, reason, Math.min(json.length(), offset + col - 1));
  }

  private static ClassAd readAd(JsonParser p, String json)
      throws IOException, ClassAdParseException {
    ClassAd.Builder b = ClassAd.builder();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      if (name.isEmpty()) {
        throw error(json, p, "empty attribute name");
      }
      p.nextToken();
      b.set(name, readExpr(p, json));
    }
    return b.build();
  }

  private static Expr readExpr(JsonParser p, String json)
      throws IOException, ClassAdParseException {
    switch (p.currentToken()) {
      case START_OBJECT:
        return new Expr.AdExpr(readAd(p, json));
      case START_ARRAY:
        {
          List<Expr> items = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(readExpr(p, json));
          }
          return new Expr.ListExpr(items);
        }
      case VALUE_NUMBER_INT:
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          return new Expr.Literal(Value.of(p.getDoubleValue()));
        }
        return new Expr.Literal(Value.of(p.getLongValue()));
      case VALUE_NUMBER_FLOAT:
        return new Expr.Literal(Value.of(p.getDoubleValue()));
      case VALUE_TRUE:
        return new Expr.Literal(Value.TRUE);
      case VALUE_FALSE:
        return new Expr.Literal(Value.FALSE);
      case VALUE_NULL:
        return new Expr.Literal(Value.UNDEFINED);
      case VALUE_STRING:
        {
          String s = p.getText();
          if (s.startsWith(EXPR_OPEN) && s.endsWith(EXPR_CLOSE) && s.length() >= 8) {
            String body = s.substring(EXPR_OPEN.length(), s.length() - EXPR_CLOSE.length());
            try {
              return ClassAds.parseExpression(body);
            } catch (ClassAdParseException e) {
              throw error(json, p, "bad expression in " + s + ": " + e.oneLine());
            }
          }
          return new Expr.Literal(Value.of(s));
        }
      default:
        throw error(json, p, "unexpected JSON " + p.currentToken());
    }
  }
}
