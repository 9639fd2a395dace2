package org.braid.infoprovider.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a provider publishes in an LDAP directory (a BDII) beside the GLUE 2.0 entities: GLUE 2.0
 * extension entries ({@code objectClass: GLUE2Extension}) whose {@code GLUE2ExtensionKey} says what
 * they hold and whose {@code GLUE2ExtensionValue} holds it. The provider writes the values ({@code
 * braid provider ldif}); a broker reading the directory ({@code braid rank --bdii}) reads them back
 * with one subtree search for {@link #FILTER}.
 *
 * <ul>
 *   <li>{@link #AD_KEY}: one storage ad, the same ad as in {@code /v1/ads}, as the {@link AdsJson}
 *       array of that one ad (values exact: bytes per second, counts, percents).
 *   <li>{@link #PROBE_KEY}: the latest point of one probe series ({@link Probe}).
 * </ul>
 *
 * <p>Values stay within the GLUE 2.0 schema (no schema of Braid's is needed in the directory), and
 * the entries' DNs carry no meaning for the reader, so a site or top-level BDII may move them under
 * its own DN prefix.
 */
public final class Glue2Extensions {

  /** The key of an extension entry holding one storage ad. */
  public static final String AD_KEY = "braid.storageAd";

  /** The key of an extension entry holding the latest point of one probe series. */
  public static final String PROBE_KEY = "braid.probe";

  /** The attribute holding the key. */
  public static final String KEY_ATTRIBUTE = "GLUE2ExtensionKey";

  /** The attribute holding the value. */
  public static final String VALUE_ATTRIBUTE = "GLUE2ExtensionValue";

  /** The LDAP filter that finds every extension entry Braid publishes, ads and probes. */
  public static final String FILTER =
      "(&(objectClass=GLUE2Extension)(|("
          + KEY_ATTRIBUTE
          + "="
          + AD_KEY
          + ")("
          + KEY_ATTRIBUTE
          + "="
          + PROBE_KEY
          + ")))";

  /** The longest value read: {@value} bytes. */
  public static final int MAX_VALUE_BYTES = 65_536;

  private static final String HOSTNAME = "hostname";
  private static final String SERIES = "series";
  private static final String TIME = "time";
  private static final String VALUE = "value";

  private Glue2Extensions() {}

  /**
   * The latest point of one of a provider's probe series.
   *
   * @param hostname the provider's published host name ({@link AdAttributes#HOSTNAME} of its ads)
   * @param series the series name, e.g. {@code disk/sda/util_percent}
   * @param time when the point was measured
   * @param value the value, in the series' unit
   */
  public record Probe(String hostname, String series, Instant time, double value) {
    /**
     * Checks the parts.
     *
     * @throws NullPointerException if a part is null
     * @throws IllegalArgumentException if the value is not finite
     */
    public Probe {
      Objects.requireNonNull(hostname, "hostname");
      Objects.requireNonNull(series, "series");
      Objects.requireNonNull(time, "time");
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException("probe value must be finite: " + value);
      }
    }
  }

  /**
   * The value of an ad's extension entry.
   *
   * @throws IllegalArgumentException for a value that is not a string, integer or finite real
   */
  public static String adValue(Map<String, Object> ad) {
    return AdsJson.write(List.of(ad));
  }

  /**
   * Reads an ad's extension value back, as untrusted input ({@link AdsJson#parse} limits).
   *
   * @throws IOException with a one-line reason if it is not one ad
   */
  public static Map<String, Object> readAd(String value) throws IOException {
    List<Map<String, Object>> ads = AdsJson.parse(bytes(value));
    if (ads.size() != 1) {
      throw new IOException("extension value holds " + ads.size() + " ads, not one");
    }
    return ads.get(0);
  }

  /** The value of a probe's extension entry. */
  public static String probeValue(Probe p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(HOSTNAME, p.hostname());
    m.put(SERIES, p.series());
    m.put(TIME, p.time().toString());
    m.put(VALUE, p.value());
    return AdsJson.write(List.of(m));
  }

  /**
   * Reads a probe's extension value back.
   *
   * @throws IOException with a one-line reason if it is not a probe point
   */
  public static Probe readProbe(String value) throws IOException {
    List<Map<String, Object>> l = AdsJson.parse(bytes(value));
    if (l.size() != 1) {
      throw new IOException("extension value holds " + l.size() + " probe points, not one");
    }
    Map<String, Object> m = l.get(0);
    if (!(m.get(HOSTNAME) instanceof String h)
        || !(m.get(SERIES) instanceof String s)
        || !(m.get(TIME) instanceof String t)
        || !(m.get(VALUE) instanceof Number v)) {
      throw new IOException("probe value needs hostname, series, time and value");
    }
    try {
      return new Probe(h, s, Instant.parse(t), v.doubleValue());
    } catch (DateTimeParseException e) {
      throw new IOException("probe time is not an ISO-8601 instant: " + t);
    }
  }

  private static byte[] bytes(String value) throws IOException {
    byte[] b = Objects.requireNonNull(value, "value").getBytes(StandardCharsets.UTF_8);
    if (b.length > MAX_VALUE_BYTES) {
      throw new IOException("extension value longer than " + MAX_VALUE_BYTES + " bytes");
    }
    return b;
  }
}
