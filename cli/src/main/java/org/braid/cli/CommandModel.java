package org.braid.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command line of {@code braid get} built from a model ({@link GetModel#TEXT}) instead of its
 * annotations: picocli reads annotations through reflection, and the JDK makes a proxy class for
 * each annotation type, about 60 ms of every start. The model is written from the annotated classes
 * (they stay the source of truth) by {@code CommandModelTest}, which fails when the two differ and
 * checks that both give the same help and the same parse results. It is a class, not a resource:
 * reading a resource opens the jar, whose central directory of about 10,000 entries the JVM reads
 * whole (10-15 ms of a start that otherwise takes every class from the class-data archive).
 *
 * <p>The model has one record a line, fields separated by tabs (a tab, newline or backslash in a
 * field escaped as {@code \t}, {@code \n}, {@code \\}; {@code \N} is null):
 *
 * <pre>
 * command NAME CLASS                the root first, then its subcommands
 * description LINE... / footer LINE... / version-provider CLASS / spec FIELD / mixin FIELD CLASS
 * option BINDING NAMES LABEL ARITY TYPE AUX DEFAULT FLAGS KEY DESCRIPTION...
 * param BINDING INDEX LABEL ARITY TYPE AUX DEFAULT FLAGS KEY DESCRIPTION...
 * </pre>
 *
 * BINDING is a field of the command ({@code FIELD}), of one of its mixins ({@code MIXIN.FIELD}), or
 * {@code -} (picocli keeps the value: the help options); NAMES and AUX are comma-separated; ARITY
 * is {@code -} when picocli derives it; FLAGS has {@code h} hidden, {@code r} required, {@code u}
 * usage help, {@code v} version help.
 */
final class CommandModel {
  /** What errors in the model call it. */
  static final String NAME = "get model";

  private CommandModel() {}

  /** Picocli's system property: regular expressions of the types whose converters to skip. */
  static final String EXCLUDES = "picocli.converters.excludes";

  /**
   * The types a model may not use: picocli looks up (and initialises) each of these classes for its
   * converters whenever it makes a parser, 30-40 ms of a start, and {@code get} has none.
   */
  static final String NOT_USED = "java\\.(sql|time)\\..*";

  /** The command line of {@code braid get} from {@link GetModel#TEXT}. */
  static CommandLine getCommandLine() {
    return build(GetModel.TEXT);
  }

  /**
   * Builds the root command, with its subcommands, from the text of a model, without picocli's
   * converters of the {@link #NOT_USED} types (unless {@value #EXCLUDES} is set already).
   */
  static CommandLine build(String model) {
    if (System.getProperty(EXCLUDES) != null) {
      return buildAll(model);
    }
    System.setProperty(EXCLUDES, NOT_USED);
    try {
      return buildAll(model);
    } finally {
      System.clearProperty(EXCLUDES);
    }
  }

  private static CommandLine buildAll(String model) {
    CommandLine root = null;
    CommandSpec spec = null;
    Object command = null;
    Map<String, Object> mixins = new HashMap<>();
    for (String line : model.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      List<String> f = fields(line);
      switch (f.get(0)) {
        case "command" -> {
          command = instance(f.get(2));
          spec = CommandSpec.wrapWithoutInspection(command).name(f.get(1));
          mixins.clear();
          if (root == null) {
            root = new CommandLine(spec);
          } else {
            root.addSubcommand(f.get(1), new CommandLine(spec));
          }
        }
        case "description" -> spec.usageMessage().description(rest(f, 1));
        case "footer" -> spec.usageMessage().footer(rest(f, 1));
        case "version-provider" -> spec.versionProvider((IVersionProvider) instance(f.get(1)));
        case "spec" -> set(command, f.get(1), spec);
        case "mixin" -> {
          Object mixin = instance(f.get(2));
          set(command, f.get(1), mixin);
          mixins.put(f.get(1), mixin);
        }
        case "option" -> spec.addOption(option(f, command, mixins));
        case "param" -> spec.addPositional(param(f, command, mixins));
        default -> throw new IllegalStateException(NAME + ": unknown record " + f.get(0));
      }
    }
    return root;
  }

  // option() and param() set the same attributes twice: the builders' common superclass,
  // ArgSpec.Builder, is not public in picocli, so one method cannot take both
  private static OptionSpec option(List<String> f, Object command, Map<String, Object> mixins) {
    Arg a = new Arg(f, command, mixins);
    OptionSpec.Builder b =
        OptionSpec.builder(f.get(2).split(","))
            .usageHelp(a.flags.contains("u"))
            .versionHelp(a.flags.contains("v"))
            .paramLabel(a.label)
            .type(a.type)
            .defaultValue(a.defaultValue)
            .hidden(a.flags.contains("h"))
            .hideParamSyntax(a.flags.contains("s"))
            .required(a.flags.contains("r"))
            .descriptionKey(a.descriptionKey)
            .description(a.description);
    if (a.aux.length > 0) {
      b.auxiliaryTypes(a.aux);
    }
    if (a.arity != null) {
      b.arity(a.arity);
    }
    if (a.value != null) {
      b.getter(a.value).setter(a.value).initialValue(a.value.get()).hasInitialValue(true);
    }
    return b.build();
  }

  private static PositionalParamSpec param(
      List<String> f, Object command, Map<String, Object> mixins) {
    Arg a = new Arg(f, command, mixins);
    PositionalParamSpec.Builder b =
        PositionalParamSpec.builder()
            .paramLabel(a.label)
            .type(a.type)
            .defaultValue(a.defaultValue)
            .hidden(a.flags.contains("h"))
            .hideParamSyntax(a.flags.contains("s"))
            .required(a.flags.contains("r"))
            .descriptionKey(a.descriptionKey)
            .description(a.description);
    if (!f.get(2).equals("-")) {
      b.index(f.get(2));
    }
    if (a.aux.length > 0) {
      b.auxiliaryTypes(a.aux);
    }
    if (a.arity != null) {
      b.arity(a.arity);
    }
    if (a.value != null) {
      b.getter(a.value).setter(a.value).initialValue(a.value.get()).hasInitialValue(true);
    }
    return b.build();
  }

  /** The attributes options and parameters share: fields 1 and 3 to the end of a record. */
  private static final class Arg {
    final String label;
    final String arity;
    final Class<?> type;
    final Class<?>[] aux;
    final String defaultValue;
    final String flags;
    final String descriptionKey;
    final String[] description;
    final FieldValue value;

    Arg(List<String> f, Object command, Map<String, Object> mixins) {
      label = f.get(3);
      arity = f.get(4).equals("-") ? null : f.get(4);
      type = type(f.get(5));
      String[] names = f.get(6).isEmpty() ? new String[0] : f.get(6).split(",");
      aux = new Class<?>[names.length];
      for (int i = 0; i < names.length; i++) {
        aux[i] = type(names[i]);
      }
      defaultValue = f.get(7);
      flags = f.get(8);
      descriptionKey = f.get(9);
      description = rest(f, 10);
      String binding = f.get(1);
      if (binding.equals("-")) {
        value = null;
      } else {
        int dot = binding.indexOf('.');
        Object target = dot < 0 ? command : mixins.get(binding.substring(0, dot));
        value = new FieldValue(target, field(target.getClass(), binding.substring(dot + 1)));
      }
    }
  }

  /** A field of one object as picocli's getter and setter. */
  private record FieldValue(Object target, Field field) implements IGetter, ISetter {
    @Override
    @SuppressWarnings("unchecked")
    public <T> T get() {
      try {
        return (T) field.get(target);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public <T> T set(T value) {
      T old = get();
      try {
        field.set(target, value);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
      return old;
    }
  }

  private static String[] rest(List<String> f, int from) {
    return f.subList(from, f.size()).toArray(new String[0]);
  }

  private static final Map<String, Class<?>> PRIMITIVES =
      Map.of(
          "boolean", boolean.class,
          "int", int.class,
          "long", long.class,
          "double", double.class);

  private static Class<?> type(String name) {
    Class<?> c = PRIMITIVES.get(name);
    if (c != null) {
      return c;
    }
    // what NOT_USED matches, without a regular expression (compiled at each call of
    // String.matches, for every option of a start)
    if (name.startsWith("java.sql.") || name.startsWith("java.time.")) {
      throw new IllegalStateException(NAME + ": picocli's converter of " + name + " is off");
    }
    try {
      return Class.forName(name, false, CommandModel.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(NAME + ": no type " + name, e);
    }
  }

  private static Object instance(String className) {
    try {
      return type(className).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(NAME + ": cannot make a " + className, e);
    }
  }

  private static Field field(Class<?> c, String name) {
    try {
      Field f = c.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(NAME + ": no field " + c.getName() + "." + name, e);
    }
  }

  private static void set(Object target, String name, Object value) {
    new FieldValue(target, field(target.getClass(), name)).set(value);
  }

  /**
   * Splits a record into its unescaped fields. A field without a backslash is cut out as it is (a
   * start runs this interpreted, once a character, over the whole model).
   */
  static List<String> fields(String line) {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int tab = line.indexOf('\t', from);
      int end = tab < 0 ? line.length() : tab;
      int slash = line.indexOf('\\', from);
      if (slash >= 0 && slash < end) {
        from = unescape(line, from, out);
      } else {
        out.add(line.substring(from, end));
        from = end + 1;
      }
      if (from > line.length()) {
        return out;
      }
    }
  }

  /**
   * Adds the field of {@code line} that starts at {@code from} and holds an escape, unescaped;
   * returns the index after its tab (past the end for the last field).
   */
  private static int unescape(String line, int from, List<String> out) {
    StringBuilder sb = new StringBuilder();
    boolean isNull = false;
    int i = from;
    for (; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\t') {
        break;
      } else if (c == '\\' && i + 1 < line.length()) {
        char e = line.charAt(++i);
        switch (e) {
          case 't' -> sb.append('\t');
          case 'n' -> sb.append('\n');
          case 'N' -> isNull = true;
          default -> sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
    out.add(isNull ? null : sb.toString());
    return i + 1;
  }

  /** One record of fields, each escaped; the inverse of {@link #fields}. */
  static String record(List<String> fields) {
    StringBuilder sb = new StringBuilder();
    for (String f : fields) {
      if (sb.length() > 0) {
        sb.append('\t');
      }
      if (f == null) {
        sb.append("\\N");
        continue;
      }
      for (int i = 0; i < f.length(); i++) {
        char c = f.charAt(i);
        switch (c) {
          case '\t' -> sb.append("\\t");
          case '\n' -> sb.append("\\n");
          case '\\' -> sb.append("\\\\");
          default -> sb.append(c);
        }
      }
    }
    return sb.toString();
  }
}
