package org.braid.infoprovider.wire;

import java.util.Map;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * The storage-ad vocabulary (paper 003, sections 2.3-2.4): the attribute names a provider publishes
 * and a broker reads, built in this one place. Bandwidths are bytes per second, spaces bytes.
 *
 * <p>Per operation ({@code RD} read, {@code WR} write) and size class (suffix {@code 10M}, {@code
 * 100M}, {@code 500M}, {@code 1G}, none for all sizes): {@code MinRDBandwidth}, {@code
 * MaxRDBandwidth}, {@code AvgRDBandwidth}, {@code StdRDBandwidth}, {@code MedRDBandwidth}, {@code
 * LastRDBandwidth} (all sizes only), {@code AvgRDBandwidth10M}, {@code RDTransfers}, {@code
 * RDTransfers10M}, and when a forecast exists {@code PredRDBandwidth}, {@code PredRDErrorPct},
 * {@code PredRDConfidencePct} with the same suffixes.
 *
 * <p>An ad of one endpoint (the door whose server's logs its statistics come from) names it with
 * {@link #URL} and its parts {@link #ENDPOINT_SCHEME}, {@link #ENDPOINT_HOST}, {@link
 * #ENDPOINT_PORT} and {@link #ENDPOINT_PATH} ({@link #putEndpoint}); an ad without them holds
 * host-level statistics (logs not tied to a door). {@link #endpoint} reads them back.
 */
public final class AdAttributes {

  /** The ad's type attribute. */
  public static final String MY_TYPE = "MyType";

  /** The value of {@link #MY_TYPE} in a storage ad. */
  public static final String STORAGE = "Storage";

  /** The provider's host name. */
  public static final String HOSTNAME = "hostname";

  /** The volume (a path prefix or a configured name). */
  public static final String VOLUME = "volume";

  /** The client host the statistics were measured for; absent in a volume's space-only ad. */
  public static final String PEER = "peer";

  /**
   * The endpoint's URL ({@link Endpoint#url()}, e.g. {@code gsiftp://se.example.org:2811}). Before
   * providers published the endpoint's parts, the one server URL the provider was configured with.
   */
  public static final String URL = "url";

  /** The endpoint's scheme, e.g. {@code gsiftp}. */
  public static final String ENDPOINT_SCHEME = "endpointScheme";

  /** The endpoint's host, as replica URLs name it. */
  public static final String ENDPOINT_HOST = "endpointHost";

  /** The endpoint's port (an integer; the scheme's default when its URL names none). */
  public static final String ENDPOINT_PORT = "endpointPort";

  /** The endpoint's path prefix, starting and ending with {@code /}. */
  public static final String ENDPOINT_PATH = "endpointPath";

  /** The volume's free space in bytes. */
  public static final String AVAILABLE_SPACE = "AvailableSpace";

  /** The volume's size in bytes. */
  public static final String TOTAL_SPACE = "TotalSpace";

  /** A bandwidth statistic, with the prefix of its attribute name. */
  public enum Stat {
    /** The lowest bandwidth. */
    MIN("Min"),
    /** The highest. */
    MAX("Max"),
    /** The mean. */
    AVG("Avg"),
    /** The standard deviation. */
    STD("Std"),
    /** The median. */
    MED("Med"),
    /** The most recent transfer's. */
    LAST("Last");

    private final String prefix;

    Stat(String prefix) {
      this.prefix = prefix;
    }
  }

  private AdAttributes() {}

  /** Puts an endpoint's attributes into an ad: {@link #URL} and the four parts. */
  public static void putEndpoint(Map<String, Object> ad, Endpoint e) {
    ad.put(URL, e.url());
    ad.put(ENDPOINT_SCHEME, e.scheme());
    ad.put(ENDPOINT_HOST, e.host());
    if (e.port() > 0) {
      ad.put(ENDPOINT_PORT, (long) e.port());
    }
    ad.put(ENDPOINT_PATH, e.path());
  }

  /**
   * The endpoint an ad names, or null for host-level statistics: its four parts when it has them (a
   * port-less scheme may leave out the port), else its {@link #URL} when that is a URL with a host
   * (what providers published before the parts existed). An ad whose parts do not make an endpoint
   * (a bad port, an empty host) names none.
   */
  public static Endpoint endpoint(Map<String, Object> ad) {
    Object scheme = ad.get(ENDPOINT_SCHEME);
    Object host = ad.get(ENDPOINT_HOST);
    Object path = ad.get(ENDPOINT_PATH);
    Object port = ad.get(ENDPOINT_PORT);
    try {
      if (scheme instanceof String s && host instanceof String h) {
        int p;
        if (port == null) {
          p = Endpoint.defaultPort(s);
        } else if (port instanceof Long l && l >= 1 && l <= 65_535) {
          p = l.intValue();
        } else {
          return null;
        }
        return new Endpoint(s, h, p, path instanceof String ps ? ps : "/");
      }
      if (ad.get(URL) instanceof String u && u.contains("://")) {
        return Endpoint.parse(u);
      }
    } catch (IllegalArgumentException e) {
      return null;
    }
    return null;
  }

  /** {@code RD} for reads, {@code WR} for writes. */
  public static String op(Operation op) {
    return op == Operation.READ ? "RD" : "WR";
  }

  /** E.g. {@code AvgRDBandwidth10M}. */
  public static String bandwidth(Stat stat, Operation op, SizeClass sc) {
    return stat.prefix + op(op) + "Bandwidth" + sc.adSuffix();
  }

  /** E.g. {@code RDTransfers10M}: how many transfers the statistics cover. */
  public static String transfers(Operation op, SizeClass sc) {
    return op(op) + "Transfers" + sc.adSuffix();
  }

  /** E.g. {@code PredRDBandwidth10M}: the forecast. */
  public static String predicted(Operation op, SizeClass sc) {
    return "Pred" + op(op) + "Bandwidth" + sc.adSuffix();
  }

  /** E.g. {@code PredRDErrorPct10M}: the forecast's normalized percent error. */
  public static String predictedErrorPct(Operation op, SizeClass sc) {
    return "Pred" + op(op) + "ErrorPct" + sc.adSuffix();
  }

  /** E.g. {@code PredRDConfidencePct10M}: the 95% confidence interval on that error. */
  public static String predictedConfidencePct(Operation op, SizeClass sc) {
    return "Pred" + op(op) + "ConfidencePct" + sc.adSuffix();
  }
}
