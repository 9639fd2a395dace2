package org.braid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Writes the model of {@link CommandModel} from the annotated classes ({@code braid} and {@code
 * get}), refusing anything the model cannot express, as the Java source of {@link GetModel}. Run as
 * a program to write the file: {@code java -cp cli/target/classes:cli/target/test-classes:$(the
 * test classpath) org.braid.cli.CommandModelWriter}, or through {@code CommandModelTest} with
 * {@code -Dbraid.writeModel=true}.
 */
final class CommandModelWriter {
  /** The source of {@link GetModel} in the source tree, relative to the cli module. */
  static final Path SOURCE = Path.of("src/main/java/org/braid/cli/GetModel.java");

  private CommandModelWriter() {}

  /** The annotated command line of {@code braid} with only {@code get}. */
  static CommandLine annotated(PrintWriter out, PrintWriter err) {
    return BraidCli.commandLine(out, err, List.of(GetCommand.class));
  }

  /** The model text of the annotated {@code braid} with {@code get}. */
  static String model() {
    StringWriter sink = new StringWriter();
    CommandLine root = annotated(new PrintWriter(sink), new PrintWriter(sink));
    StringBuilder sb = new StringBuilder();
    command(root.getCommandSpec(), sb);
    for (CommandLine sub : root.getSubcommands().values()) {
      command(sub.getCommandSpec(), sb);
    }
    return sb.toString();
  }

  /**
   * The Java source of {@link GetModel} holding {@code model}: one string literal a record, as
   * google-java-format lays them out (it does not split long literals).
   */
  static String javaSource(String model) {
    StringBuilder sb = new StringBuilder();
    sb.append("package org.braid.cli;\n\n")
        .append("/**\n")
        .append(
            " * The model of {@code braid get} that {@link CommandModel} builds the command line")
        .append(" from. Written\n")
        .append(
            " * from the annotations of {@code braid} and {@code get} by {@code CommandModelTest}")
        .append(" with {@code\n")
        .append(" * -Dbraid.writeModel=true}: do not edit.\n")
        .append(" */\n")
        .append("final class GetModel {\n")
        .append("  private GetModel() {}\n\n")
        .append("  /** The records of the model, one a line. */\n")
        .append("  static final String TEXT =\n");
    String[] lines = model.split("(?<=\n)");
    for (int i = 0; i < lines.length; i++) {
      sb.append(i == 0 ? "      " : "          + ").append(literal(lines[i]));
      sb.append(i == lines.length - 1 ? ";\n" : "\n");
    }
    return sb.append("}\n").toString();
  }

  /** {@code s} as a Java string literal. */
  static String literal(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < ' ' || c > '~') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  private static void command(CommandSpec spec, StringBuilder sb) {
    spec.interpolateVariables(false); // the raw text: picocli interpolates when rendering
    Object command = spec.userObject();
    line(sb, "command", spec.name(), command.getClass().getName());
    UsageMessageSpec u = spec.usageMessage();
    check(spec, u);
    if (u.description().length > 0) {
      line(sb, concat("description", u.description()));
    }
    if (u.footer().length > 0) {
      line(sb, concat("footer", u.footer()));
    }
    if (spec.versionProvider() != null) {
      line(sb, "version-provider", spec.versionProvider().getClass().getName());
    }
    for (Field f : command.getClass().getDeclaredFields()) {
      if (f.getType() == CommandSpec.class) {
        line(sb, "spec", f.getName());
      }
    }
    for (Map.Entry<String, CommandSpec> m : spec.mixins().entrySet()) {
      if (!m.getKey().equals("mixinStandardHelpOptions")) {
        line(sb, "mixin", m.getKey(), m.getValue().userObject().getClass().getName());
      }
    }
    for (OptionSpec o : spec.options()) {
      List<String> f = new ArrayList<>(List.of("option", binding(spec, o), join(o.names())));
      arg(o, f, o.usageHelp() ? "u" : o.versionHelp() ? "v" : "");
      line(sb, f.toArray(new String[0]));
    }
    for (PositionalParamSpec p : spec.positionalParameters()) {
      String index = p.index().isUnspecified() ? "-" : p.index().originalValue();
      List<String> f = new ArrayList<>(List.of("param", binding(spec, p), index));
      arg(p, f, "");
      line(sb, f.toArray(new String[0]));
    }
    spec.interpolateVariables(true);
  }

  private static void arg(ArgSpec a, List<String> f, String flags) {
    f.add(a.paramLabel());
    f.add(a.arity().isUnspecified() ? "-" : a.arity().originalValue());
    f.add(a.type().getName());
    List<String> aux = new ArrayList<>();
    for (Class<?> c : a.auxiliaryTypes()) {
      aux.add(c.getName());
    }
    f.add(String.join(",", aux));
    f.add(a.defaultValue());
    f.add(
        (a.hidden() ? "h" : "")
            + (a.required() ? "r" : "")
            + (a.hideParamSyntax() ? "s" : "")
            + flags);
    f.add(a.descriptionKey());
    f.addAll(Arrays.asList(a.description()));
    String where = a.toString();
    require(a.converters().length == 0, where, "converters");
    require(a.splitRegex().isEmpty(), where, "split");
    require(a.showDefaultValue() == Visibility.ON_DEMAND, where, "showDefaultValue");
    require(!a.interactive(), where, "interactive");
    require(a.parameterConsumer() == null, where, "parameterConsumer");
    require(!a.inherited(), where, "inherited");
    require(a.group() == null, where, "group");
    if (a instanceof OptionSpec o) {
      require(!o.negatable(), where, "negatable");
      require(o.fallbackValue().isEmpty(), where, "fallbackValue");
      require(o.order() == -1, where, "order");
    }
  }

  /** Refuses a command attribute the model does not carry (other than their defaults). */
  private static void check(CommandSpec spec, UsageMessageSpec u) {
    CommandSpec plain = CommandSpec.create();
    UsageMessageSpec d = plain.usageMessage();
    String where = spec.name();
    require(spec.aliases().length == 0, where, "aliases");
    require(spec.subcommandsRepeatable() == plain.subcommandsRepeatable(), where, "repeatable");
    require(spec.argGroups().isEmpty(), where, "argument groups");
    require(u.header().length == 0, where, "header");
    require(u.customSynopsis().length == 0, where, "customSynopsis");
    require(u.abbreviateSynopsis() == d.abbreviateSynopsis(), where, "abbreviateSynopsis");
    require(u.sortOptions() == d.sortOptions(), where, "sortOptions");
    require(u.showDefaultValues() == d.showDefaultValues(), where, "showDefaultValues");
    require(u.hidden() == d.hidden(), where, "hidden");
    require(u.descriptionHeading().equals(d.descriptionHeading()), where, "descriptionHeading");
    require(u.footerHeading().equals(d.footerHeading()), where, "footerHeading");
    require(u.optionListHeading().equals(d.optionListHeading()), where, "optionListHeading");
    require(u.commandListHeading().equals(d.commandListHeading()), where, "commandListHeading");
    require(u.synopsisHeading().equals(d.synopsisHeading()), where, "synopsisHeading");
    require(u.parameterListHeading().equals(d.parameterListHeading()), where, "parameterHeading");
    require(spec.parser().toString().equals(plain.parser().toString()), where, "parser settings");
  }

  private static void require(boolean ok, String where, String what) {
    if (!ok) {
      throw new IllegalStateException(where + ": the command model cannot express " + what);
    }
  }

  /** FIELD, MIXIN.FIELD, or - for an argument of picocli's own (the help options). */
  private static String binding(CommandSpec spec, ArgSpec a) {
    if (!(a.userObject() instanceof Field f)) {
      throw new IllegalStateException(a + ": not a field: " + a.userObject());
    }
    Object command = spec.userObject();
    if (f.getDeclaringClass() == command.getClass()) {
      return f.getName();
    }
    for (Map.Entry<String, CommandSpec> m : spec.mixins().entrySet()) {
      if (m.getValue().args().contains(a)) {
        return m.getKey().equals("mixinStandardHelpOptions") ? "-" : m.getKey() + "." + f.getName();
      }
    }
    throw new IllegalStateException(a + ": field " + f + " of neither the command nor a mixin");
  }

  private static String join(String[] names) {
    return String.join(",", names);
  }

  private static String[] concat(String first, String[] rest) {
    String[] out = new String[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }

  private static void line(StringBuilder sb, String... fields) {
    sb.append(CommandModel.record(Arrays.asList(fields))).append('\n');
  }

  /** Writes the model file into the source tree (run from the cli module). */
  public static void main(String[] args) throws IOException {
    Files.createDirectories(SOURCE.getParent());
    Files.writeString(SOURCE, model(), StandardCharsets.UTF_8);
    System.out.println("wrote " + SOURCE.toAbsolutePath());
  }
}
