package org.braid.infoprovider.store;

import java.time.Instant;

/** Times as the database keeps them: microseconds since the epoch (UTC). */
final class Micros {

  private Micros() {}

  static long of(Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
  }

  static Instant toInstant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }
}
