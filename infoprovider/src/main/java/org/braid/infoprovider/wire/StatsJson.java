package org.braid.infoprovider.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.StatsKey;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.predictors.Forecast;

/**
 * The JSON of a provider's {@code /v1/stats} answer, written by the provider and read back by
 * {@link #read}: {@code {computedAt, hostname, rejectedLines, stats: [...], volumes: [...]}}.
 *
 * <p>One statistics object: endpoint (the endpoint's URL, {@link Endpoint#url()}; absent for
 * host-level statistics), volume, peer, operation (read/write), sizeClass, count, failed, bytes,
 * minBandwidth, maxBandwidth, meanBandwidth, stddevBandwidth, medianBandwidth, lastBandwidth (bytes
 * per second), lastTime (ISO-8601), and when computed forecast {status (ok or
 * insufficient_history), predictor, chosen, value, errorPct, ciPct, history, scored}. One volume:
 * {volume, dataDirectory, availableSpace, totalSpace} (bytes).
 */
public final class StatsJson {

  /** The shared mapper (thread-safe once configured). */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * A whole answer.
   *
   * @param computedAt when the provider computed the statistics
   * @param hostname the provider's host name
   * @param rejectedLines log lines the provider could not read
   * @param stats the statistics groups, each with its endpoint
   * @param volumes the configured volumes' space
   */
  public record Answer(
      Instant computedAt,
      String hostname,
      long rejectedLines,
      List<ScopedStats> stats,
      List<VolumeSpace> volumes) {
    /** Copies the lists. */
    public Answer {
      stats = List.copyOf(stats);
      volumes = List.copyOf(volumes);
    }
  }

  private StatsJson() {}

  /** The answer as one line of JSON. */
  public static String write(Answer a) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("computedAt", a.computedAt().toString());
    o.put("hostname", a.hostname());
    o.put("rejectedLines", a.rejectedLines());
    o.set("stats", of(a.stats()));
    ArrayNode v = o.putArray("volumes");
    for (VolumeSpace s : a.volumes()) {
      v.addObject()
          .put("volume", s.volume())
          .put("dataDirectory", s.dataDirectory().toString())
          .put("availableSpace", s.available())
          .put("totalSpace", s.total());
    }
    try {
      return MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain values always serialises", e);
    }
  }

  /**
   * Parses an answer.
   *
   * @throws IOException with a one-line reason naming the first bad field
   */
  public static Answer read(byte[] body) throws IOException {
    JsonNode o;
    try {
      o = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IOException("malformed JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    if (o == null || !o.isObject()) {
      throw new IOException("statistics answer is not a JSON object");
    }
    try {
      List<ScopedStats> stats = new ArrayList<>();
      for (JsonNode s : array(o, "stats")) {
        JsonNode e = s.get("endpoint");
        stats.add(
            new ScopedStats(e == null ? null : Endpoint.parse(text(s, "endpoint")), stats(s)));
      }
      List<VolumeSpace> volumes = new ArrayList<>();
      for (JsonNode v : array(o, "volumes")) {
        volumes.add(
            new VolumeSpace(
                text(v, "volume"),
                Path.of(text(v, "dataDirectory")),
                integer(v, "availableSpace"),
                integer(v, "totalSpace")));
      }
      return new Answer(
          time(o, "computedAt"), text(o, "hostname"), integer(o, "rejectedLines"), stats, volumes);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new IOException("bad statistics answer: " + e.getMessage());
    }
  }

  /** One statistics object, with its endpoint when it has one. */
  public static ObjectNode of(ScopedStats scoped) {
    ObjectNode o = MAPPER.createObjectNode();
    if (scoped.endpoint() != null) {
      o.put("endpoint", scoped.endpoint().url());
    }
    return fill(o, scoped.stats());
  }

  /** One statistics object without an endpoint. */
  public static ObjectNode of(TransferStats s) {
    return fill(MAPPER.createObjectNode(), s);
  }

  private static ObjectNode fill(ObjectNode o, TransferStats s) {
    o.put("volume", s.key().volume());
    o.put("peer", s.key().peer());
    o.put("operation", s.key().operation().label());
    o.put("sizeClass", s.key().sizeClass().label());
    o.put("count", s.count());
    o.put("failed", s.failed());
    o.put("bytes", s.bytes());
    o.put("minBandwidth", s.minBandwidth());
    o.put("maxBandwidth", s.maxBandwidth());
    o.put("meanBandwidth", s.meanBandwidth());
    o.put("stddevBandwidth", s.stddevBandwidth());
    o.put("medianBandwidth", s.medianBandwidth());
    o.put("lastBandwidth", s.lastBandwidth());
    o.put("lastTime", s.lastTime().toString());
    Forecast f = s.forecast();
    if (f != null) {
      ObjectNode fo = o.putObject("forecast");
      fo.put("status", f.isAvailable() ? "ok" : "insufficient_history");
      fo.put("predictor", f.predictor());
      fo.put("chosen", f.chosen());
      fo.put("value", f.value());
      fo.put("errorPct", f.errorPct());
      fo.put("ciPct", f.ciPct());
      fo.put("history", f.history());
      fo.put("scored", f.scored());
    }
    return o;
  }

  /** An array of statistics objects. */
  public static ArrayNode of(List<ScopedStats> stats) {
    ArrayNode a = MAPPER.createArrayNode();
    for (ScopedStats s : stats) {
      a.add(of(s));
    }
    return a;
  }

  private static TransferStats stats(JsonNode s) {
    StatsKey key =
        new StatsKey(
            text(s, "volume"),
            text(s, "peer"),
            Operation.parse(text(s, "operation")),
            SizeClass.parse(text(s, "sizeClass")));
    JsonNode f = s.get("forecast");
    Forecast forecast = null;
    if (f != null && f.isObject()) {
      String status = text(f, "status");
      if (!status.equals("ok") && !status.equals("insufficient_history")) {
        throw new IllegalArgumentException("forecast status must be ok or insufficient_history");
      }
      forecast =
          new Forecast(
              text(f, "predictor"),
              real(f, "value"),
              real(f, "errorPct"),
              real(f, "ciPct"),
              (int) integer(f, "history"),
              f.has("scored") ? (int) integer(f, "scored") : 0,
              text(f, "chosen"),
              status.equals("ok") ? Forecast.Status.OK : Forecast.Status.INSUFFICIENT_HISTORY);
    }
    return new TransferStats(
        key,
        integer(s, "count"),
        integer(s, "failed"),
        integer(s, "bytes"),
        real(s, "minBandwidth"),
        real(s, "maxBandwidth"),
        real(s, "meanBandwidth"),
        real(s, "stddevBandwidth"),
        real(s, "medianBandwidth"),
        real(s, "lastBandwidth"),
        time(s, "lastTime"),
        forecast);
  }

  private static JsonNode field(JsonNode o, String name) {
    JsonNode v = o.get(name);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("missing " + name);
    }
    return v;
  }

  private static Iterable<JsonNode> array(JsonNode o, String name) {
    JsonNode v = field(o, name);
    if (!v.isArray()) {
      throw new IllegalArgumentException(name + " is not an array");
    }
    return v;
  }

  private static String text(JsonNode o, String name) {
    JsonNode v = field(o, name);
    if (!v.isTextual()) {
      throw new IllegalArgumentException(name + " is not a string");
    }
    return v.textValue();
  }

  private static long integer(JsonNode o, String name) {
    JsonNode v = field(o, name);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException(name + " is not an integer");
    }
    return v.longValue();
  }

  private static double real(JsonNode o, String name) {
    JsonNode v = field(o, name);
    if (!v.isNumber()) {
      throw new IllegalArgumentException(name + " is not a number");
    }
    return v.doubleValue();
  }

  private static Instant time(JsonNode o, String name) {
    return Instant.parse(text(o, name));
  }
}
