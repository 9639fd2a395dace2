package org.braid.coalloc;

import java.net.URI;
import java.util.List;

/** Block schedulers for tests: the default scheme over one replica, on the real clock. */
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
}
