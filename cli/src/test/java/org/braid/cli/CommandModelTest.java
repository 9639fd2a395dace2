package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The model of {@code braid get} ({@link CommandModel}) against its annotations: the file is what
 * the annotations say, and both command lines print the same help and errors, and parse a broad set
 * of argument vectors to the same values.
 */
class CommandModelTest {

  /** The model built from the resource, with output to the given writers. */
  private static CommandLine model(PrintWriter out, PrintWriter err) {
    CommandLine cl = BraidCli.getCommandLine(out, err);
    assertTrue(cl.getCommandSpec().userObject() instanceof BraidCli);
    assertTrue(
        cl.getSubcommands().get("get").getCommandSpec().mixins().isEmpty(),
        "the command line came from the annotations, not from the model");
    return cl;
  }

  private static CommandLine annotated() {
    StringWriter sink = new StringWriter();
    return CommandModelWriter.annotated(new PrintWriter(sink), new PrintWriter(sink));
  }

  @Test
  void model_isWhatTheAnnotationsSay() throws IOException {
    String expected = CommandModelWriter.model();
    if (Boolean.getBoolean("braid.writeModel")) {
      Files.writeString(
          CommandModelWriter.SOURCE,
          CommandModelWriter.javaSource(expected),
          StandardCharsets.UTF_8);
      return;
    }
    assertEquals(
        expected,
        GetModel.TEXT,
        "the options of braid or get changed: write the model again with"
            + " ./mvnw -pl cli -am test -Dtest=CommandModelTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -Dbraid.writeModel=true");
  }

  @Test
  void fields_undoRecord_withAndWithoutEscapes() {
    List<List<String>> cases =
        List.of(
            List.of("option", "a", "", "b"),
            Arrays.asList("x", null, "y"),
            List.of("tab\there", "new\nline", "back\\slash", "end\\"),
            List.of("only"),
            List.of("empty", ""),
            Arrays.asList("plain", "with\ttab", null, "", "last"));
    for (List<String> c : cases) {
      assertEquals(c, CommandModel.fields(CommandModel.record(c)), CommandModel.record(c));
    }
    assertEquals(List.of("a", "b\\"), CommandModel.fields("a\tb\\"), "a lone backslash at the end");
  }

  @Test
  void javaSource_holdsTheModelAsWritten() {
    assertEquals("\"a\\tb\\\\c\\\"d\\n\"", CommandModelWriter.literal("a\tb\\c\"d\n"));
    assertEquals("\"\\u00e9\\u0001\"", CommandModelWriter.literal("\u00e9\u0001"));
    String source = CommandModelWriter.javaSource("x\ty\n\"z\"\n");
    assertTrue(source.contains("final class GetModel {"), source);
    assertTrue(
        source.contains(
            "  static final String TEXT =\n      \"x\\ty\\n\"\n          + \"\\\"z\\\"\\n\";\n"),
        source);
  }

  @Test
  void help_isByteIdentical() {
    for (String[] args :
        List.of(
            new String[] {"get", "--help"},
            new String[] {"get", "-h"},
            new String[] {"get", "-V"},
            new String[] {"get", "--version"},
            new String[] {"get", "-fh"},
            new String[] {"get", "http://a/f", "-o", "x", "--help"})) {
      assertEquals(runAnnotated(args), runModel(args), String.join(" ", args));
    }
    CommandLine model =
        model(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine annotated = annotated();
    for (Ansi ansi : List.of(Ansi.OFF, Ansi.ON)) {
      assertEquals(
          annotated.getSubcommands().get("get").getUsageMessage(ansi),
          model.getSubcommands().get("get").getUsageMessage(ansi));
      assertEquals(annotated.getUsageMessage(ansi), model.getUsageMessage(ansi));
    }
    assertTrue(runModel("get", "--help").startsWith("0\nUsage: braid get [-fhqrvV]"));
  }

  @Test
  void errors_areTheSame() {
    List<String[]> bad = new ArrayList<>();
    for (OptionSpec o : annotated().getSubcommands().get("get").getCommandSpec().options()) {
      if (o.arity().max() > 0) {
        bad.add(new String[] {"get", "http://a/f", o.longestName()}); // its parameter missing
        if (o.type() != String.class && o.type() != List.class) {
          bad.add(new String[] {"get", o.longestName(), "notanumber"});
        }
      } else {
        bad.add(new String[] {"get", o.longestName() + "=maybe"});
      }
    }
    bad.add(new String[] {"get", "--bogus"});
    bad.add(new String[] {"get", "-Z"});
    bad.add(new String[] {"get", "-fZ"});
    bad.add(new String[] {"get", "-o", "a", "-o", "b"});
    bad.add(new String[] {"get", "--max-sources", "1", "--max-sources", "2"});
    bad.add(new String[] {"get", "--blocks=", "http://a/f"});
    bad.add(new String[] {"get", "--providerport", "1"});
    assertTrue(bad.size() > 40, "" + bad.size());
    for (String[] args : bad) {
      String a = runAnnotated(args);
      assertEquals(a, runModel(args), String.join(" ", args));
      assertTrue(a.startsWith("2\n"), String.join(" ", args) + ": " + a);
    }
  }

  @Test
  void parse_givesTheSameValues() throws Exception {
    List<String[]> good = new ArrayList<>();
    good.add(new String[] {"get"});
    good.add(new String[] {"get", "http://a/f", "http://b/f", "-o", "out"});
    good.add(new String[] {"get", "-fqv", "-oOUT", "--dry-run", "--", "-x", "http://a/f"});
    good.add(new String[] {"get", "-o=OUT", "--checksum", "sha256:ab", "--checksum=md5:cd"});
    good.add(new String[] {"get", "-d", "dir", "-r", "http://a/", "-j", "8", "--name", "a*"});
    good.add(new String[] {"get", "--catalog", "c.json", "x", "--requirements", "other.X > 1"});
    good.add(new String[] {"get", "--max-sources=3", "--blocks", "4", "--scheme", "history"});
    for (OptionSpec o : annotated().getSubcommands().get("get").getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      for (String name : o.names()) {
        if (o.arity().max() == 0) {
          good.add(new String[] {"get", name, "http://a/f"});
        } else {
          String v = sample(o.type());
          if (o.arity().min() == 2) {
            good.add(new String[] {"get", name, v, "w", "http://a/f"});
            continue;
          }
          good.add(new String[] {"get", "http://a/f", name, v});
          if (o.isMultiValue()) {
            good.add(new String[] {"get", name, v, name + "=" + v});
          }
        }
      }
    }
    assertTrue(good.size() > 60, "" + good.size());
    for (String[] args : good) {
      CommandLine a = annotated();
      CommandLine m =
          model(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
      String where = String.join(" ", args);
      ParseResult pa = a.parseArgs(args);
      ParseResult pm = m.parseArgs(args);
      assertEquals(matched(pa), matched(pm), where);
      Object ga = pa.subcommand().commandSpec().userObject();
      Object gm = pm.subcommand().commandSpec().userObject();
      assertEquals(values(ga), values(gm), where);
      assertTrue(values(gm).size() > 45, values(gm).toString());
    }
  }

  @Test
  void commandFields_areInjected() {
    CommandLine m = model(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandSpec get = m.getSubcommands().get("get").getCommandSpec();
    GetCommand g = (GetCommand) get.userObject();
    assertEquals(get, g.spec);
    assertNotNull(g.source);
    assertNotNull(g.dataset);
    assertNotNull(g.transfer);
    assertNotNull(g.connection);
    assertEquals(m.getCommandSpec(), ((BraidCli) m.getCommandSpec().userObject()).spec);
    assertEquals("braid get", get.qualifiedName());
  }

  @Test
  void timeAndSqlConverters_areOff_whileBuilding_only() {
    assertEquals(null, System.getProperty(CommandModel.EXCLUDES));
    model(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    assertEquals(null, System.getProperty(CommandModel.EXCLUDES), "left set");
    String model =
        "command\tbraid\torg.braid.cli.BraidCli\n"
            + "option\t-\t--at\tT\t-\tjava.time.Instant\t\t\\N\t\t\tWhen.\n";
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> CommandModel.build(model));
    assertEquals("get model: picocli's converter of java.time.Instant is off", e.getMessage());
    String path = model.replace("java.time.Instant", "java.nio.file.Path");
    assertEquals(
        Path.of("x"),
        CommandModel.build(path).parseArgs("--at", "x").matchedOptionValue("--at", null));
  }

  private static String sample(Class<?> type) {
    if (type == int.class || type == Integer.class || type == long.class) {
      return "7";
    }
    return type == double.class ? "2.5" : "v";
  }

  private static List<String> matched(ParseResult r) {
    List<String> out = new ArrayList<>();
    for (ParseResult p = r; p != null; p = p.subcommand()) {
      out.add(p.commandSpec().name());
      p.matchedOptions().forEach(o -> out.add(o.longestName() + "=" + o.getValue()));
      p.matchedPositionals().forEach(o -> out.add(o.paramLabel() + "=" + o.getValue()));
      out.add("unmatched=" + p.unmatched());
    }
    return out;
  }

  /** Every field of the command and of its mixins, by name (not the spec). */
  private static List<String> values(Object command) throws IllegalAccessException {
    List<String> out = new ArrayList<>();
    for (Field f : command.getClass().getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) || f.getType() == CommandSpec.class) {
        continue;
      }
      f.setAccessible(true);
      Object v = f.get(command);
      if (v != null && v.getClass().getPackageName().equals("org.braid.cli")) {
        for (String s : values(v)) {
          out.add(f.getName() + "." + s);
        }
      } else {
        out.add(f.getName() + "=" + (v instanceof Object[] arr ? Arrays.toString(arr) : v));
      }
    }
    return out;
  }

  private static String runModel(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    return code + "\n" + out + "\n--\n" + err;
  }

  private static String runAnnotated(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = CommandModelWriter.annotated(new PrintWriter(out), new PrintWriter(err));
    int code = cl.execute(args);
    cl.getOut().flush();
    cl.getErr().flush();
    return code + "\n" + out + "\n--\n" + err;
  }
}
