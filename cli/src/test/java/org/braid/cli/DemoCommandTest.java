package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
  @Test
  void demo_smallFile_printsReportAndComparison() {
    GetCommandTest.Run r = GetCommandTest.run("demo", "--size", "4", "--rates", "64,32");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(
        "braid demo: 2 mirrors on 127.0.0.1 at [64, 32] Mbit/s (sum 96 Mbit/s), 4 MiB test file",
        lines.get(0));
    assertTrue(lines.get(1).contains(": 4.0 MiB in "), lines.get(1));
    assertTrue(lines.get(lines.size() - 3).startsWith("best single mirror (64 Mbit/s): "));
    assertTrue(lines.get(lines.size() - 2).startsWith("co-allocated (adaptive): "));
    assertTrue(lines.get(lines.size() - 1).startsWith("verified: sha256 of both downloads"));
  }

  @Test
  void demo_swapAfter_announcesSwapAndStillVerifies() {
    GetCommandTest.Run r =
        GetCommandTest.run("demo", "--size", "2", "--rates", "64,16", "--swap-after", "0.1");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(
        "the 64 and 16 Mbit/s mirrors swap rates 0.1 s after each download starts", lines.get(1));
    assertTrue(lines.get(lines.size() - 1).startsWith("verified: "));
  }

  @Test
  void demo_badSize_exitsTwo() {
    GetCommandTest.Run r = GetCommandTest.run("demo", "--size", "0");
    assertEquals(2, r.code());
    assertEquals("braid: --size must be in 1..4096 MiB: 0\n", r.err());
  }
}
