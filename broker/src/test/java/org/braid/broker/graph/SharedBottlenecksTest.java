package org.braid.broker.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.braid.infoprovider.TransferRecord;
import org.junit.jupiter.api.Test;

class SharedBottlenecksTest {

  static TransferRecord flow(String server, long startS, long seconds, double rate) {
    Instant s = Instant.ofEpochSecond(startS);
    return new TransferRecord(
        server,
        "client",
        "/f",
        (long) (rate * seconds),
        s,
        s.plusSeconds(seconds),
        1,
        -1,
        -1,
        TransferRecord.Operation.READ,
        "/",
        "ok",
        "http");
  }

  @Test
  void learn_concurrentSumAtLargerSolo_isShared_independentIsNot() {
    List<TransferRecord> h = new ArrayList<>();
    // Solo: a 80, b 60, c 50 (MB/s), at separate times.
    h.add(flow("a:80", 0, 10, 80e6));
    h.add(flow("b:80", 100, 10, 60e6));
    h.add(flow("c:80", 200, 10, 50e6));
    // a and b together: 45 + 35 = 80 -> the sum stayed at a alone: shared.
    h.add(flow("a:80", 300, 10, 45e6));
    h.add(flow("b:80", 300, 10, 35e6));
    // a and c together: 78 + 49 = 127 -> they add up: independent.
    h.add(flow("a:80", 400, 10, 78e6));
    h.add(flow("c:80", 400, 10, 49e6));
    List<SharedBottlenecks.Group> g = SharedBottlenecks.learn(h, 0.1);
    assertEquals(1, g.size());
    assertEquals(Set.of("a:80", "b:80"), g.get(0).servers());
    assertEquals(80e6, g.get(0).capacity(), 1);
  }

  @Test
  void learn_noSoloMeasurement_learnsNothing() {
    List<TransferRecord> h = List.of(flow("a:80", 0, 10, 40e6), flow("b:80", 0, 10, 40e6));
    assertTrue(SharedBottlenecks.learn(h, 0.1).isEmpty());
  }
}
