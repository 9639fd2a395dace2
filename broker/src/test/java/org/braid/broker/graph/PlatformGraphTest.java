package org.braid.broker.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlatformGraphTest {

  /** Paper 001, Table 1: link bandwidths in Mbit/s, row = from, column = to. */
  static final String[] SITES = {"BMI", "ORNL", "ST", "JA", "ANL"};

  static final double[][] TABLE1 = {
    {880, 200, 200, 70, 4},
    {200, 900, 800, 100, 20},
    {80, 900, 900, 800, 150},
    {40, 120, 800, 900, 8},
    {60, 600, 500, 30, 900},
  };

  static PlatformGraph table1() {
    PlatformGraph.Builder b = PlatformGraph.builder();
    for (int i = 0; i < SITES.length; i++) {
      for (int j = 0; j < SITES.length; j++) {
        if (i != j) {
          b.link(SITES[i], SITES[j], TABLE1[i][j]);
        }
      }
    }
    return b.build();
  }

  @Test
  void widestPath_table1_jaToAnl_relaysThroughStarlight() {
    // Paper 001, Figure 5(a): JA-ST-ANL instead of the direct 8 Mbit/s JA-ANL link.
    PlatformGraph.WidestPath p = table1().widestPath("JA", "ANL");
    assertEquals(List.of("JA", "ST", "ANL"), p.hosts());
    assertEquals(150, p.bottleneck());
  }

  @Test
  void widestPath_table1_bmiToJa_viaStarlightNotOrnl() {
    // Paper 001, Figure 5(b) uses BMI-ORNL-JA (bottleneck 100) and BMI-ST-JA (200); the widest is
    // via ST.
    PlatformGraph.WidestPath p = table1().widestPath("BMI", "JA");
    assertEquals(List.of("BMI", "ST", "JA"), p.hosts());
    assertEquals(200, p.bottleneck());
  }

  @Test
  void widestPath_directLinkWidest_staysDirect_andUnreachableIsNull() {
    assertEquals(List.of("ORNL", "ST"), table1().widestPath("ORNL", "ST").hosts());
    PlatformGraph g = PlatformGraph.builder().link("a", "b", 5).link("c", "b", 1).build();
    assertNull(g.widestPath("b", "a"));
    assertThrows(IllegalArgumentException.class, () -> g.widestPath("a", "zz"));
  }

  @Test
  void maxFlow_table1_allSitesToJa_isBoundedByJaInboundLinks() {
    // Sources BMI, ORNL, ST, ANL into JA: the inbound links 70 + 100 + 800 + 30 = 1000 can all be
    // filled, because relays add capacity only towards links that are already counted.
    PlatformGraph.Flow f = table1().maxFlow(List.of("BMI", "ORNL", "ST", "ANL"), "JA");
    assertEquals(1000, f.value(), 1e-9);
  }

  @Test
  void maxFlow_withoutSharedBottleneck_addsLinks() {
    PlatformGraph g = PlatformGraph.builder().link("a", "c", 800).link("b", "c", 600).build();
    assertEquals(1400, g.maxFlow(List.of("a", "b"), "c").value(), 1e-9);
  }

  @Test
  void maxFlow_withSharedBottleneck_staysAtBottleneck() {
    // Paper 001, Figure 3: C1-R-C3 and C2-R-C3 through a router R that sustains 800.
    PlatformGraph g =
        PlatformGraph.builder()
            .link("C1", "C3", 1000)
            .link("C2", "C3", 1000)
            .sharedBottleneck("R", "C3", 800, List.of("C1", "C2"))
            .build();
    PlatformGraph.Flow f = g.maxFlow(List.of("C1", "C2"), "C3");
    assertEquals(800, f.value(), 1e-9);
    assertEquals(800, f.bySource().get("C1") + f.bySource().get("C2"), 1e-9);
    assertEquals(800, g.maxFlow(List.of("C1"), "C3").value(), 1e-9);
  }

  @Test
  void coallocationSet_skipsReplicaBehindSaturatedBottleneck() {
    // a and b share a 100 bottleneck; c is independent. The best pair is {a, c}, not {a, b}.
    PlatformGraph g =
        PlatformGraph.builder()
            .link("a", "me", 100)
            .link("b", "me", 90)
            .link("c", "me", 60)
            .link("d", "me", 2)
            .sharedBottleneck("site", "me", 100, List.of("a", "b"))
            .build();
    PlatformGraph.CoallocationSet s = g.coallocationSet(List.of("a", "b", "c", "d"), "me", 0.95);
    assertEquals(162, s.bound(), 1e-9);
    assertEquals(List.of("a", "c"), s.hosts());
    assertEquals(160, s.flow(), 1e-9);
    // At 100% the tiny replica d is needed too, and b never.
    assertEquals(
        List.of("a", "c", "d"), g.coallocationSet(List.of("a", "b", "c", "d"), "me", 1.0).hosts());
  }

  @Test
  void builder_badArguments_namedInMessages() {
    assertEquals(
        "capacity of a -> b must be finite and not negative: NaN",
        assertThrows(
                IllegalArgumentException.class,
                () -> PlatformGraph.builder().link("a", "b", Double.NaN))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> PlatformGraph.builder().link("a", "a", 1));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            PlatformGraph.builder()
                .sharedBottleneck("x", "m", 1, List.of("a"))
                .sharedBottleneck("y", "m", 1, List.of("a")));
    PlatformGraph g = PlatformGraph.builder().link("a", "b", 1).build();
    assertThrows(IllegalArgumentException.class, () -> g.coallocationSet(List.of("a"), "b", 0));
    assertThrows(IllegalArgumentException.class, () -> g.maxFlow(List.of("b"), "b"));
  }

  @Test
  void relayTraversalCapacity_boundsPathsAndFlowsThroughIt_notToIt() {
    // Paper 000: a path's bandwidth is that of its slowest link or relay.
    PlatformGraph g =
        PlatformGraph.builder()
            .link("server", "R1", 10)
            .link("R1", "proxy", 10)
            .link("server", "R2", 8)
            .link("R2", "proxy", 8)
            .link("server", "proxy", 2)
            .relayCapacity("R1", 5)
            .build();
    PlatformGraph.WidestPath p = g.widestPath("server", "proxy");
    assertEquals(List.of("server", "R2", "proxy"), p.hosts());
    assertEquals(8, p.bottleneck());
    assertEquals(List.of("server", "R1"), g.widestPath("server", "R1").hosts());
    assertEquals(10, g.widestPath("server", "R1").bottleneck());
    assertEquals(5 + 8 + 2, g.maxFlow(List.of("server"), "proxy").value(), 1e-9);
    assertEquals(10, g.maxFlow(List.of("server"), "R1").value(), 1e-9);
  }
}
