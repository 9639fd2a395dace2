package org.braid.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogProviderTest {

  /** A debug line of the download engine, in the built-in (and shipped) layout. */
  static final Pattern ENGINE_DEBUG =
      Pattern.compile(
          "(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) DEBUG"
              + " org\\.braid\\.coalloc\\.Engine - \\[[0-9a-f]+\\] starting ");

  @TempDir Path dir;

  @Test
  void select_choosesThisProvider_onlyWhenNoneWasChosen() {
    String savedProvider = System.getProperty(LogProvider.PROVIDER_PROPERTY);
    String savedVerbosity = System.getProperty(LogProvider.VERBOSITY_PROPERTY);
    try {
      System.clearProperty(LogProvider.PROVIDER_PROPERTY);
      System.clearProperty(LogProvider.VERBOSITY_PROPERTY);
      LogProvider.select();
      assertEquals(LogProvider.class.getName(), System.getProperty("slf4j.provider"));
      assertEquals("WARN", System.getProperty("slf4j.internal.verbosity"));
      System.setProperty(LogProvider.PROVIDER_PROPERTY, "some.Other");
      System.clearProperty(LogProvider.VERBOSITY_PROPERTY);
      LogProvider.select();
      assertEquals("some.Other", System.getProperty("slf4j.provider"));
      assertEquals(null, System.getProperty("slf4j.internal.verbosity"));
    } finally {
      restore(LogProvider.PROVIDER_PROPERTY, savedProvider);
      restore(LogProvider.VERBOSITY_PROPERTY, savedVerbosity);
    }
  }

  @Test
  void initialize_appliesTheBuiltInConfiguration() {
    LogProvider p = new LogProvider();
    p.initialize();
    LoggerContext context = assertInstanceOf(LoggerContext.class, p.getLoggerFactory());
    try {
      Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      assertNotNull(root.getAppender("STDERR"));
      assertEquals(LogSettings.fromEnvironment().root(), root.getLevel());
      assertEquals(
          LogSettings.fromEnvironment().wire(),
          context.getLogger(LogSettings.WIRE_LOGGER).getLevel());
      assertEquals("default", context.getName());
      assertTrue(context.isStarted());
      assertNotNull(p.getMDCAdapter());
      assertNotNull(p.getMarkerFactory().getMarker("m"));
    } finally {
      context.stop();
    }
  }

  /** The command in a fresh JVM, as the launcher runs it: logging as documented, nothing more. */
  @Test
  void command_logsAsDocumented_throughEveryConfigurationPath() throws Exception {
    Path src = Files.write(dir.resolve("f"), new byte[100_000]);
    String shipped = LogConfiguratorTest.SHIPPED.toAbsolutePath().toString();
    String quiet = run(List.of(), Map.of(), src);
    assertEquals("", quiet);
    String debug = run(List.of(), Map.of("BRAID_LOG", "debug"), src);
    assertTrue(ENGINE_DEBUG.matcher(debug).find(), debug);
    String named = run(List.of(), Map.of("BRAID_LOG", "warn,org.braid.coalloc.Engine=debug"), src);
    assertTrue(ENGINE_DEBUG.matcher(named).find(), named);
    assertFalse(named.contains("DEBUG org.braid.coalloc.EventLog"), named);
    String file = run(List.of(), Map.of("BRAID_LOG", "debug", "BRAID_LOG_CONFIG", shipped), src);
    assertTrue(ENGINE_DEBUG.matcher(file).find(), file);
    String logback = run(List.of("-Dlogback.configurationFile=" + shipped), Map.of(), src);
    assertEquals("", logback);
    String logbackDebug =
        run(List.of("-Dlogback.configurationFile=" + shipped), Map.of("BRAID_LOG", "debug"), src);
    assertTrue(ENGINE_DEBUG.matcher(logbackDebug).find(), logbackDebug);
    for (String s : List.of(quiet, debug, named, file, logback, logbackDebug)) {
      assertFalse(s.contains("SLF4J"), s);
    }
  }

  /** Runs {@code braid get SRC -o OUT} in a fresh JVM; returns its standard error. */
  private String run(List<String> jvmOptions, Map<String, String> env, Path src)
      throws IOException, InterruptedException {
    Path out = dir.resolve("out");
    Files.deleteIfExists(out);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "org.braid.cli.BraidCli",
            "get",
            src.toString(),
            "-o",
            out.toString(),
            "--no-journal",
            "--quiet"));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("BRAID_LOG");
    pb.environment().remove("BRAID_LOG_CONFIG");
    pb.environment().remove("BRAID_LOG_WIRE");
    pb.environment().remove("BRAID_TIMING");
    pb.environment().putAll(env);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Path err = dir.resolve("err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("braid get did not end within 60 s: " + cmd);
    }
    String text = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), text);
    assertTrue(Files.size(out) == 100_000, "output size");
    return text;
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }
}
