package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How many connections the default scheme opens to each replica ({@link Engine#connections}). */
class FarConnectionsTest {
  private static final long MS = 1_000_000L;
  private static final List<URI> HTTP =
      List.of(URI.create("http://a/f"), URI.create("https://b/f"), URI.create("davs://c/f"));

  @Test
  void distantHttpReplicas_getTwoConnections_whenTheUserChoseNone() {
    SourceOptions o = SourceOptions.builder().build();
    assertEquals(1, Engine.connections(o, HTTP, 0));
    assertEquals(1, Engine.connections(o, HTTP, Engine.FAR_ANSWER_NANOS - 1));
    assertEquals(2, Engine.connections(o, HTTP, Engine.FAR_ANSWER_NANOS));
    assertEquals(2, Engine.connections(o, HTTP, 300 * MS));
  }

  @Test
  void theUsersCount_isKept_nearOrFar() {
    SourceOptions one = SourceOptions.builder().connectionsPerSource(1).build();
    SourceOptions four = SourceOptions.builder().connectionsPerSource(4).build();
    assertEquals(1, Engine.connections(one, HTTP, 300 * MS));
    assertEquals(4, Engine.connections(four, HTTP, 300 * MS));
    assertEquals(4, Engine.connections(four, HTTP, 0));
  }

  @Test
  void thisMachine_isNeverDistant() {
    SourceOptions o = SourceOptions.builder().build();
    for (String u :
        new String[] {"http://127.0.0.1:8081/f", "http://localhost/f", "http://[::1]/f"}) {
      assertEquals(1, Engine.connections(o, List.of(URI.create(u)), 300 * MS), u);
    }
    List<URI> mixed = List.of(URI.create("http://far.example/f"), URI.create("http://127.0.0.1/f"));
    assertEquals(1, Engine.connections(o, mixed, 300 * MS));
  }

  @Test
  void otherProtocols_keepOneConnection() {
    SourceOptions o = SourceOptions.builder().build();
    List<URI> mixed = List.of(URI.create("http://a/f"), URI.create("gsiftp://b/f"));
    assertEquals(1, Engine.connections(o, mixed, 300 * MS));
    assertEquals(1, Engine.connections(o, List.of(URI.create("root://x//f")), 300 * MS));
  }
}
