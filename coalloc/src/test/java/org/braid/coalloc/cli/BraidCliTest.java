package org.braid.coalloc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class BraidCliTest {

  @Test
  void help_listsUsageAndExitsZero() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), "--help");
    assertEquals(0, code);
    assertTrue(out.toString().startsWith("Usage: braid"), out.toString());
  }

  @Test
  void unknownOption_printsOneLineReasonAndExitsTwo() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), "--bogus");
    assertEquals(BraidCli.EXIT_USAGE, code);
    assertEquals("braid: Unknown option: '--bogus'", err.toString().lines().findFirst().get());
  }
}
