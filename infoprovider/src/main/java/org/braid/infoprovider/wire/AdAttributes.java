package org.braid.infoprovider.wire;

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

  /** The server URL the provider was configured with. */
  public static final String URL = "url";

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
