package org.braid.infoprovider.stats;

import java.util.Comparator;
import java.util.Objects;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * What statistics are grouped by: server volume, peer, operation and size class.
 *
 * @param volume the server's logical volume
 * @param peer the client (or, for a journal, the client host)
 * @param operation read or write
 * @param sizeClass the size class, or {@link SizeClass#ALL} for every size
 */
public record StatsKey(String volume, String peer, Operation operation, SizeClass sizeClass)
    implements Comparable<StatsKey> {

  private static final Comparator<StatsKey> ORDER =
      Comparator.comparing(StatsKey::volume)
          .thenComparing(StatsKey::peer)
          .thenComparing(StatsKey::operation)
          .thenComparing(StatsKey::sizeClass);

  /**
   * Checks the key.
   *
   * @throws NullPointerException if any part is null
   */
  public StatsKey {
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(sizeClass, "sizeClass");
  }

  @Override
  public int compareTo(StatsKey o) {
    return ORDER.compare(this, o);
  }

  /** The same key for every size class. */
  public StatsKey allSizes() {
    return new StatsKey(volume, peer, operation, SizeClass.ALL);
  }
}
