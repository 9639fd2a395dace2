package org.braid.cli;

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
  void everySubcommandsHelp_rendersWithoutPicocliWarnings() throws Exception {
    // picocli reports a bad description (e.g. an unescaped '%') on System.err while rendering
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.util.List<String> rendered = new java.util.ArrayList<>();
    try {
      System.setErr(new java.io.PrintStream(captured, true, "UTF-8"));
      java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>();
      todo.add(
          BraidCli.commandLine(
              new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())));
      while (!todo.isEmpty()) {
        picocli.CommandLine c = todo.poll();
        rendered.add(c.getCommandSpec().qualifiedName());
        c.getUsageMessage();
        todo.addAll(c.getSubcommands().values());
      }
    } finally {
      System.setErr(saved);
    }
    assertTrue(rendered.size() > 10, rendered.toString());
    assertEquals("", captured.toString("UTF-8"));
  }

  @Test
  void unknownOption_printsOneLineReasonAndExitsTwo() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), "--bogus");
    assertEquals(BraidCli.EXIT_USAGE, code);
    assertEquals("braid: Unknown option: '--bogus'", err.toString().lines().findFirst().get());
  }

  @Test
  void invoked_namesOnlyARealNonHelpSubcommand() {
    assertEquals(java.util.Optional.of(GetCommand.class), BraidCli.invoked("get", "--help"));
    assertEquals(
        java.util.Optional.of(PredictCommand.class), BraidCli.invoked("predict", "evaluate"));
    assertEquals(java.util.Optional.empty(), BraidCli.invoked("help", "get"));
    assertEquals(java.util.Optional.empty(), BraidCli.invoked("--help"));
    assertEquals(java.util.Optional.empty(), BraidCli.invoked("gett"));
    assertEquals(java.util.Optional.empty(), BraidCli.invoked());
  }

  @Test
  void names_agreeWithTheSubcommandsAnnotations() {
    java.util.Map<String, Class<?>> fromAnnotations = new java.util.HashMap<>();
    for (Class<?> c : BraidCli.SUBCOMMANDS) {
      picocli.CommandLine.Command a = c.getAnnotation(picocli.CommandLine.Command.class);
      if (c != picocli.CommandLine.HelpCommand.class) {
        fromAnnotations.put(a.name(), c);
        for (String alias : a.aliases()) {
          fromAnnotations.put(alias, c);
        }
      }
    }
    assertEquals(fromAnnotations, BraidCli.NAMES);
  }

  @Test
  void helpForASubcommand_stillWorksThroughTheHelpSubcommand() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), "help", "get");
    assertEquals(0, code, err.toString());
    assertTrue(out.toString().startsWith("Usage: braid get"), out.toString());
  }

  @Test
  void misspelledSubcommand_isReportedAgainstTheFullList() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), "gett");
    assertEquals(BraidCli.EXIT_USAGE, code);
    assertTrue(
        err.toString().startsWith("braid: Unmatched argument at index 0: 'gett'"), err.toString());
  }
}
