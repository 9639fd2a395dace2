package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Block schedulers for tests: the default scheme, one connection per replica. */
final class Schedulers {
  private Schedulers() {}

  /** A scheduler of {@code size} bytes over one replica, {@code http://m0/f}, at 4 MB/s. */
  static BlockScheduler oneReplica(long size) {
    return new BlockScheduler(
        size,
        List.of(new Replica(0, URI.create("http://m0/f"), 4e6)),
        1,
        ((BlockPolicy.Spec) Scheme.adaptive()).create(),
        System::nanoTime,
        null,
        null,
        null);
  }

  /**
   * A scheduler of {@code size} bytes over one replica per rate ({@code http://a/f}, {@code
   * http://b/f}, ...; a rate of 0 is unknown), timed by {@code clock}.
   */
  static BlockScheduler adaptive(long size, Ticker clock, double... rates) {
    List<Replica> replicas = new ArrayList<>();
    for (int i = 0; i < rates.length; i++) {
      replicas.add(new Replica(i, URI.create("http://" + (char) ('a' + i) + "/f"), rates[i]));
    }
    return new BlockScheduler(
        size,
        replicas,
        1,
        ((BlockPolicy.Spec) Scheme.adaptive()).create(),
        clock,
        null,
        null,
        null);
  }
}
