package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How many connections the default scheme opens to each replica ({@link Engine#connections}) and
 * whether it pipelines its requests ({@link Engine#pipelining}).
 */
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

  @Test
  void largeFilesFromDistantReplicas_arePipelined_unlessTheUserChose() {
    SourceOptions o = SourceOptions.builder().build();
    long big = Engine.PIPELINE_MIN_BYTES;
    assertTrue(Engine.pipelining(o, HTTP, Engine.FAR_ANSWER_NANOS, big));
    assertTrue(Engine.pipelining(o, HTTP, 300 * MS, 200_000_000L));
    assertFalse(Engine.pipelining(o, HTTP, 300 * MS, big - 1), "a small file");
    assertFalse(Engine.pipelining(o, HTTP, Engine.FAR_ANSWER_NANOS - 1, big), "near replicas");
    SourceOptions off = SourceOptions.builder().pipelining(false).build();
    SourceOptions on = SourceOptions.builder().pipelining(true).build();
    assertFalse(off.pipelining() || !off.pipeliningChosen());
    assertFalse(Engine.pipelining(off, HTTP, 300 * MS, big), "--no-pipeline");
    assertTrue(Engine.pipelining(on, HTTP, 0, 1000), "--pipeline, near and small");
  }

  @Test
  void localOrOtherProtocolReplicas_areNotPipelinedByDefault() {
    SourceOptions o = SourceOptions.builder().build();
    long big = 1L << 30;
    assertFalse(Engine.pipelining(o, List.of(URI.create("http://127.0.0.1/f")), 300 * MS, big));
    List<URI> mixed = List.of(URI.create("http://a/f"), URI.create("gsiftp://b/f"));
    assertFalse(Engine.pipelining(o, mixed, 300 * MS, big));
  }
}
